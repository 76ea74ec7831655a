import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, mockApi } from '../../test/api-mock';
import { shellReplies } from '../../test/fixtures';
import { findDialog, renderApp } from '../../test/render';
import { workgroup } from './fixtures';
import { option, row, serveResources as serve } from './test-kit';

afterEach(() => vi.unstubAllGlobals());

describe('workgroup detail', () => {
  it("changes a server's login users, at least one, from its own", async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve(workgroup({ id: 5, name: 'Ops' }));
    renderApp('/settings/workgroup/5?type=ecs');
    const web = await row('web-1');
    // Change host login user: at least one, from the server's own login users.
    await user.click(within(web).getByRole('button', { name: 'Change the login users of web-1' }));
    const change = await findDialog('Change host login user');
    await user.click(within(change).getByRole('combobox'));
    // Unchoosing the only one is refused.
    await user.click(await option('root'));
    await user.click(within(change).getByRole('button', { name: 'Save' }));
    expect(await within(change).findByText('Choose at least one login user')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
    await user.click(within(change).getByRole('combobox'));
    await user.click(await option('root'));
    await user.click(await option('deploy'));
    await user.click(within(change).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Change successfully!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      login_username: ['root', 'deploy'],
    });
    expect(await within(await row('web-1')).findByText('deploy')).toBeInTheDocument();
  });

  it("a cluster's default workgroup has the globe and neither Add nor Delete", async () => {
    serve(workgroup({ id: 5, name: 'Lab', network_id: 3, is_default: true }));
    renderApp('/settings/workgroup/5?type=ecs');
    const web = await row('web-1');
    expect(screen.getByRole('img', { name: 'Default workgroup' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Add Host/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    expect(within(web).queryByRole('checkbox')).not.toBeInTheDocument();
    // Login users can still be chosen.
    expect(
      within(web).getByRole('button', { name: 'Change the login users of web-1' }),
    ).toBeInTheDocument();
  });

  it('says a workgroup it may not see is not found', async () => {
    mockApi({
      ...shellReplies(),
      'GET /api/v1/project/77': apiError(404, 'ProjectNotFound'),
    });
    renderApp('/settings/workgroup/77');
    expect(
      await screen.findByText(/workgroup/i, { selector: '.ant-result-title' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Back to workgroups/ })).toBeInTheDocument();
  });
});
