import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockApi, type RecordedCall } from '../../test/api-mock';
import { renderInApp } from '../../test/render';
import { ConnectivityTest } from './components/ConnectivityTest';

afterEach(() => vi.unstubAllGlobals());

/**
 * Answers the status poll with each of `states` in turn, then the last one for good; a failed
 * one with `reason`.
 */
function serve(states: string[], reason = '') {
  let polls = 0;
  return mockApi({
    'POST /api/service_connection_test': { task_id: 'task-1' },
    'GET /api/query_service_connection_test': (call: RecordedCall) => {
      expect(call.query.get('task_id')).toBe('task-1');
      const status = states[Math.min(polls, states.length - 1)];
      polls += 1;
      return { status, reason: status === 'disable' ? reason : '' };
    },
  });
}

describe('connectivity test', () => {
  it('polls every second while pending: spinner and a disabled button, then yes', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve(['pending', 'pending', 'enable']);
    renderInApp(<ConnectivityTest resourceId={7} username="root" available />);
    const button = await screen.findByRole('button', { name: 'Test the connection of root' });
    await user.click(button);
    expect(await screen.findByLabelText('Testing')).toBeInTheDocument();
    expect(button).toBeDisabled();
    expect(await screen.findByText('yes', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(button).toBeEnabled();
    const polls = calls.filter((c) => c.path === '/api/query_service_connection_test');
    expect(polls).toHaveLength(3);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      resource_id: 7,
      username: 'root',
    });
  });

  it('shows no and why when the gateway could not log in, and stops polling', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = serve(['disable'], 'tls_failed');
    renderInApp(<ConnectivityTest resourceId={7} available />);
    await user.click(await screen.findByRole('button', { name: 'Test the connection' }));
    expect(await screen.findByText('no')).toBeInTheDocument();
    expect(
      screen.getByText(
        'TLS failed: none offered where it is required, or the certificate was not accepted',
      ),
    ).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 1300));
    expect(calls.filter((c) => c.path === '/api/query_service_connection_test')).toHaveLength(1);
  });

  it('says no without a reason it has no words for (the catch-all error)', async () => {
    const user = userEvent.setup({ delay: null });
    serve(['disable'], 'error');
    renderInApp(<ConnectivityTest resourceId={7} available />);
    await user.click(await screen.findByRole('button', { name: 'Test the connection' }));
    expect(await screen.findByText('no')).toBeInTheDocument();
    expect(screen.queryByText('error')).not.toBeInTheDocument();
  });

  it('is disabled without an available agent and shows the last result', async () => {
    serve(['enable']);
    renderInApp(
      <ConnectivityTest resourceId={7} username="root" lastResult="enable" available={false} />,
    );
    expect(
      await screen.findByRole('button', { name: 'Test the connection of root' }),
    ).toBeDisabled();
    expect(screen.getByText('yes')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByLabelText('Testing')).not.toBeInTheDocument());
  });
});
