import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { findDialog, renderApp } from '../../test/render';
import { workgroup } from './fixtures';
import { row, serveResources as serve } from './test-kit';

afterEach(() => vi.unstubAllGlobals());

describe('workgroup detail: resources', () => {
  it('lists servers, adds them from the candidates, and deletes after confirming', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve(workgroup({ id: 5, name: 'Ops', desc: 'On call' }));
    renderApp('/settings/workgroup/5');
    expect(await screen.findByRole('heading', { name: 'Ops' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Servers', selected: true })).toBeInTheDocument();
    const web = await row('web-1');
    expect(within(web).getByText('10.0.0.5:22')).toBeInTheDocument();
    expect(within(web).getByText('root')).toBeInTheDocument();
    expect(within(web).getByText('Linux')).toBeInTheDocument();
    expect(within(web).getByText('2C4G')).toBeInTheDocument();
    // Servers only on this tab.
    expect(screen.queryByText('pg-main')).not.toBeInTheDocument();

    // Add Host: nothing chosen is refused here; then two candidates, one from a shared cluster.
    await user.click(screen.getByRole('button', { name: /Add Host/ }));
    const add = await findDialog('Add Host');
    expect(await within(add).findByText('db-replica')).toBeInTheDocument();
    expect(within(add).getByText('Shared')).toBeInTheDocument();
    expect(
      within(add).getByText('A workgroup holds at most 1000 resources; this one holds 2.'),
    ).toBeInTheDocument();
    await user.click(within(add).getByRole('button', { name: 'Add (0)' }));
    expect(await within(add).findByText('Choose at least one resource')).toBeInTheDocument();
    for (const name of ['db-replica', 'cache']) {
      const candidateRow = within(add).getByText(name).closest('tr') as HTMLElement;
      await user.click(within(candidateRow).getByRole('checkbox'));
    }
    await user.click(within(add).getByRole('button', { name: 'Add (2)' }));
    expect(await screen.findByText('Add Successfully!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ resource_ids: [301, 302] });
    expect(await screen.findByText('cache')).toBeInTheDocument();

    // Delete one row (by its resource id), after confirming.
    await user.click(
      within(await row('cache')).getByRole('button', { name: 'Delete cache from the workgroup' }),
    );
    const confirm = await screen.findByRole('tooltip', { name: /Delete this resource/ });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Delete successfully!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE')?.body).toEqual({ resource_ids: [302] });
    await waitFor(() => expect(screen.queryByText('cache')).not.toBeInTheDocument());
  });

  it("says ResourceExceeded in the catalogue's words; databases show names, connect IP and type", async () => {
    const user = userEvent.setup({ delay: null });
    serve(workgroup({ id: 5, name: 'Ops' }), { exceeded: true });
    const app = renderApp('/settings/workgroup/5?type=database');
    const pg = await row('pg-main');
    expect(within(pg).getByText('app; audit')).toBeInTheDocument();
    expect(within(pg).getByText('10.0.0.9:5432')).toBeInTheDocument();
    expect(within(pg).getByText('PostgreSQL')).toBeInTheDocument();
    expect(within(pg).queryByRole('button', { name: /Change/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Add Database/ }));
    const add = await findDialog('Add Database');
    const first = (await within(add).findByText('db-replica')).closest('tr') as HTMLElement;
    await user.click(within(first).getByRole('checkbox'));
    await user.click(within(add).getByRole('button', { name: 'Add (1)' }));
    expect(
      await screen.findByText('Exceeding the maximum number of resources'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Servers' }));
    await waitFor(() => expect(app.location()).toBe('/settings/workgroup/5?type=ecs'));
  });
});
