import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Cluster } from '@portcullis/contract';
import { apiError, mockApi } from '../../test/api-mock';
import { paged, shellReplies } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { nextMidnight } from './update-tip';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const SLOW = 120_000;

function cluster(overrides: Partial<Cluster> = {}): Cluster {
  return {
    id: 3,
    name: 'Lab',
    parent_id: null,
    parent_company: null,
    agent_status: 0,
    agent_version: '',
    agent: null,
    need_update: false,
    resource_count: 2,
    safe_mode: 0,
    info: { max_tunnel_expire_time: 0, is_open_map: false, port_map_info: [] },
    create_time: 1_700_000_000,
    ...overrides,
  };
}

const OWN = cluster({ id: 3, name: 'Lab', need_update: true, agent_status: 1 });
/** Outdated too, but this account (id 1) closed its update tip today. */
const SNOOZED = cluster({ id: 5, name: 'Quiet', need_update: true, agent_status: 1 });
const SHARED = cluster({
  id: 4,
  name: 'Partner',
  parent_id: 9,
  parent_company: { full_name: 'Acme' },
});

describe('cluster list', () => {
  it(
    'shows status, the shared mark and the update warning; a refused delete says why',
    async () => {
      const user = userEvent.setup({ delay: null });
      localStorage.setItem('pc.cluster-update-tip.1.5', String(nextMidnight(new Date())));
      const { calls } = mockApi({
        ...shellReplies(),
        'GET /api/v1/network/list': paged([OWN, SHARED, SNOOZED], 1, 20),
        'DELETE /api/network/3': apiError(400, 'NetworkHasResources'),
        'DELETE /api/network/4': { ok: true },
      });
      renderApp('/settings/cluster');
      await screen.findByText('Lab', {}, { timeout: 15_000 });
      const own = (await screen.findByRole('link', { name: 'Lab' })).closest('tr') as HTMLElement;
      expect(within(own).getByText('Available')).toBeInTheDocument();
      expect(within(own).getByLabelText('The agent needs an update')).toBeInTheDocument();
      expect(within(own).getByRole('link', { name: /Export/ })).toHaveAttribute(
        'href',
        '/api/v1/project/resources/export/3',
      );
      const quiet = screen.getByRole('link', { name: 'Quiet' }).closest('tr') as HTMLElement;
      expect(within(quiet).queryByLabelText('The agent needs an update')).toBeNull();
      const shared = screen.getByRole('link', { name: 'Partner' }).closest('tr') as HTMLElement;
      expect(within(shared).getByText('Shared by Acme')).toBeInTheDocument();
      expect(within(shared).getByText('Unavailable')).toBeInTheDocument();
      expect(within(shared).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
      // Three clusters: no pager.
      expect(document.querySelector('.ant-pagination')).toBeNull();
      expect(calls.find((c) => c.path === '/api/v1/network/list')?.query.get('page_size')).toBe(
        '20',
      );

      await user.click(within(own).getByRole('button', { name: 'Delete cluster Lab' }));
      await user.click(
        within(await screen.findByRole('tooltip')).getByRole('button', {
          name: 'Delete',
        }),
      );
      expect(await screen.findByText('Cluster still has resources')).toBeInTheDocument();

      await user.click(within(shared).getByRole('button', { name: 'Return cluster Partner' }));
      const confirm = await screen.findByRole('tooltip', { name: /Return this cluster/ });
      await user.click(within(confirm).getByRole('button', { name: 'Return' }));
      expect(await screen.findByText('Return successfully!')).toBeInTheDocument();
    },
    SLOW,
  );
});

describe('shared cluster detail', () => {
  it(
    'shows only the log filters, read-only, and Return The Cluster',
    async () => {
      mockApi({
        ...shellReplies(),
        'GET /api/v1/network/4': SHARED,
        'GET /api/v1/network/4/log_filters': [
          { id: 1, network_id: 4, operator: 'contains', condition: 'secret', create_time: 1 },
        ],
      });
      renderApp('/settings/cluster/4?type=ecs');
      expect(await screen.findByText('secret', {}, { timeout: 15_000 })).toBeInTheDocument();
      expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Log filters']);
      expect(screen.getByRole('button', { name: /Return The Cluster/ })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Set Cluster/ })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Delete Cluster/ })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Add Log Filter/ })).not.toBeInTheDocument();
      await waitFor(() => expect(screen.queryByText('Agent')).not.toBeInTheDocument());
    },
    SLOW,
  );
});

describe('cluster setting tab', () => {
  const scripts = (insecure: boolean) => ({
    install:
      "printf 'Authorization: Bearer %s\\n' 'pck_x' | curl -fsSL -H @- 'http://10.0.0.5:8080/api/agent/install.sh' | sudo sh -s -- install",
    update: 'u',
    rollback: 'r',
    uninstall: 'x',
    latest_version: '1.0.0',
    insecure_http: insecure,
  });

  for (const insecure of [true, false]) {
    it(
      `${insecure ? 'warns' : 'does not warn'} that gateways refuse the server's ${insecure ? 'plain http://' : 'https://'} address`,
      async () => {
        mockApi({
          ...shellReplies(),
          'GET /api/v1/network/3': OWN,
          'GET /api/v1/network/3/agent_scripts': scripts(insecure),
          'GET /api/v1/network/3/log_filters': [],
        });
        renderApp('/settings/cluster/3?type=settings');
        await screen.findByText('1.0.0', {}, { timeout: 15_000 });
        const warning = screen.queryByText("The server's address (PUBLIC_URL) is plain http://");
        if (insecure) {
          expect(warning).toBeInTheDocument();
          expect(screen.getByText(/put PORTCULLIS_INSECURE_HTTP=1 after sudo/)).toBeInTheDocument();
        } else expect(warning).toBeNull();
      },
      SLOW,
    );
  }
});
