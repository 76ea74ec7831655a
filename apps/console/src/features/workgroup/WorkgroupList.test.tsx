import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Workgroup } from '@portcullis/contract';
import { mockApi, type RecordedCall } from '../../test/api-mock';
import { account, paged, shellReplies } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { workgroup } from './test-fixtures';

afterEach(() => vi.unstubAllGlobals());

const SLOW = 120_000;
const MEMBER = account({ id: 7, is_admin: 0 });

describe('workgroup list', () => {
  it(
    'stars a workgroup, then shows the starred ones; nine a page; export links',
    async () => {
      const user = userEvent.setup({ delay: null });
      const all: Workgroup[] = Array.from({ length: 12 }, (_, i) =>
        workgroup({ id: i + 1, name: `team-${i + 1}`, resource_count: i }),
      );
      all[0] = { ...all[0], is_default: true, desc: 'Everything in Lab' } as Workgroup;
      const { calls } = mockApi({
        ...shellReplies(MEMBER),
        'GET /api/v1/project/list': (call: RecordedCall) => {
          const starred = call.query.get('q_favourite') === '1';
          const rows = starred ? all.filter((w) => w.favourite === 1) : all;
          return paged(rows, Number(call.query.get('page')), Number(call.query.get('page_size')));
        },
        'PUT /api/project/3/favourite': (call: RecordedCall) => {
          const favourite = (call.body as { favourite: 0 | 1 }).favourite;
          all[2] = { ...all[2], favourite } as Workgroup;
          return all[2];
        },
      });
      renderApp('/operation/workgroup');
      const cards = () =>
        within(screen.getByRole('list', { name: 'Workgroups' })).getAllByRole('listitem');
      const card = (name: string) =>
        screen.getByRole('link', { name }).closest('.ant-card') as HTMLElement;
      await screen.findByRole('link', { name: 'team-1' }, { timeout: 15_000 });
      // Nine cards, and a pager because there are twelve.
      expect(cards()).toHaveLength(9);
      expect(document.querySelector('.pc-workgroup-pager')).not.toBeNull();
      const first = calls.find(
        (c) => c.path === '/api/v1/project/list' && !c.query.has('q_favourite'),
      );
      expect(first?.query.get('page_size')).toBe('9');
      expect(within(card('team-1')).getByText('Everything in Lab')).toBeInTheDocument();
      expect(within(card('team-1')).getByLabelText('Default workgroup of a cluster')).toBeTruthy();
      expect(within(card('team-3')).getByText('2 resources')).toBeInTheDocument();
      expect(
        within(card('team-3')).getByRole('link', { name: 'Export the resources of team-3' }),
      ).toHaveAttribute('href', '/api/v1/project/resources/3/export');
      // No favourites: Star Work Group is off.
      const star = screen.getByRole('radio', { name: 'Star Work Group' });
      expect(star).toBeDisabled();
      const toggle = within(card('team-3')).getByRole('button', { name: 'Star workgroup team-3' });
      expect(toggle).toHaveAttribute('aria-pressed', 'false');
      await user.click(toggle);
      await waitFor(() =>
        expect(screen.getByRole('radio', { name: 'Star Work Group' })).toBeEnabled(),
      );
      expect(
        within(card('team-3')).getByRole('button', { name: 'Star workgroup team-3' }),
      ).toHaveAttribute('aria-pressed', 'true');
      await user.click(screen.getByText('Star Work Group'));
      await waitFor(() => expect(cards()).toHaveLength(1));
      expect(screen.getByRole('link', { name: 'team-3' })).toHaveAttribute(
        'href',
        '/operation/workgroup/3?type=ecs',
      );
      expect(document.querySelector('.pc-workgroup-pager')).toBeNull();
      // A search by name goes to the server as q_name, from page 1.
      await user.click(screen.getByText('All Work Group'));
      await user.click(screen.getByRole('searchbox', { name: 'Search workgroups' }));
      await user.paste('team-1');
      await user.keyboard('{Enter}');
      await waitFor(() => expect(calls.some((c) => c.query.get('q_name') === 'team-1')).toBe(true));
    },
    SLOW,
  );

  it(
    'says so when the member is in no workgroup',
    async () => {
      mockApi({ ...shellReplies(MEMBER), 'GET /api/v1/project/list': paged([]) });
      renderApp('/operation/workgroup');
      expect(
        await screen.findByText(/You are not in any workgroup yet/, {}, { timeout: 15_000 }),
      ).toBeInTheDocument();
      expect(screen.getByRole('radio', { name: 'Star Work Group' })).toBeDisabled();
    },
    SLOW,
  );
});
