import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Cluster, Resource } from '@portcullis/contract';
import { mockApi, type RecordedCall } from '../../test/api-mock';
import { paged, shellReplies } from '../../test/fixtures';
import { findDialog, renderApp } from '../../test/render';
import { fromSeconds, splitCommands, splitUsernames, toSeconds } from './rules';
import { isSnoozed, nextMidnight } from './update-tip';

afterEach(() => vi.unstubAllGlobals());

function set(input: HTMLElement, value: string): void {
  fireEvent.change(input, { target: { value } });
}

/** Picks an option of the open Select dropdown (fireEvent: the list may still be animating). */
async function pick(title: string): Promise<void> {
  await waitFor(() => {
    const option = document.querySelector(`.ant-select-item-option[title="${title}"]`);
    if (!option) throw new Error(`no option ${title}`);
    fireEvent.click(option);
  });
}

// Whole pages with their panels render slowly on the test machine.
const SLOW = 120_000;

function cluster(overrides: Partial<Cluster> = {}): Cluster {
  return {
    id: 3,
    name: 'Lab',
    parent_id: null,
    parent_company: null,
    agent_status: 1,
    agent_version: '3.0.0',
    agent: null,
    need_update: false,
    resource_count: 0,
    safe_mode: 0,
    info: { max_tunnel_expire_time: 0, is_open_map: false, port_map_info: [] },
    create_time: 1_700_000_000,
    ...overrides,
  };
}

function resource(): Resource {
  return {
    id: 9,
    network_id: 3,
    name: 'web',
    resource_type: 'LinuxServer',
    os: 'linux',
    ip_address: '10.0.0.5',
    port: 22,
    instance_id: '',
    flavor: '',
    extension: { username: ['root'], data: [] },
    username: '',
    databases: [],
    status: 1,
    create_time: 1_700_000_000,
    host_key: null,
    tls_mode: null,
    tls_ca: null,
  };
}

function serve(extra: Record<string, unknown> = {}) {
  return mockApi({
    ...shellReplies(),
    'GET /api/v1/network/3': cluster(),
    'PATCH /api/network/3': (call: RecordedCall) => cluster(call.body as Partial<Cluster>),
    'GET /api/v1/network/3/resource': paged([]),
    'POST /api/v1/resource': resource(),
    ...extra,
  });
}

describe('cluster rules', () => {
  it('converts validity units and splits lists', () => {
    expect(toSeconds(30, 'minute')).toBe(1800);
    expect(toSeconds(365, 'day')).toBe(31_536_000);
    expect(fromSeconds(7200)).toEqual({ value: 2, unit: 'hour' });
    expect(fromSeconds(172_800)).toEqual({ value: 2, unit: 'day' });
    expect(splitUsernames(' root; ;admin;root ')).toEqual(['root', 'admin']);
    const evening = new Date(2026, 10, 22, 21, 30);
    expect(nextMidnight(evening)).toBe(new Date(2026, 10, 23, 0, 0).getTime());
    localStorage.setItem('pc.cluster-update-tip.1.3', String(nextMidnight(evening)));
    expect(isSnoozed(1, 3, evening)).toBe(true);
    expect(isSnoozed(1, 3, new Date(2026, 10, 23, 0, 1))).toBe(false);
    expect(isSnoozed(2, 3, evening)).toBe(false);
    expect(splitCommands('rm -rf, shutdown,rm -rf,,reboot')).toEqual([
      'rm -rf',
      'shutdown',
      'reboot',
    ]);
  });
});

describe('Set Cluster', () => {
  it(
    'checks the maximum code validity and duplicate mapped ports',
    async () => {
      const user = userEvent.setup({ delay: null });
      const { calls } = serve();
      renderApp('/settings/cluster/3?type=ecs');
      await user.click(await screen.findByRole('button', { name: /Set Cluster/ }));
      const panel = await findDialog('Set Cluster');
      await user.click(within(panel).getByRole('radio', { name: 'Customize' }));
      const number = await within(panel).findByRole('spinbutton', { name: 'Validity' });
      set(number, '20');
      expect(
        await within(panel).findByText(
          'In order to ensure the availability of the code, the maximum effective time cannot be less than 30 minutes',
        ),
      ).toBeInTheDocument();
      set(number, '9000000');
      expect(
        await within(panel).findByText('Effective time cannot exceed 1 year'),
      ).toBeInTheDocument();
      set(number, '0');
      await user.click(within(panel).getByRole('button', { name: /Add rule/ }));
      await user.click(within(panel).getByRole('button', { name: /Add rule/ }));
      set(within(panel).getByRole('spinbutton', { name: 'Port of rule 1' }), '22');
      set(within(panel).getByRole('spinbutton', { name: 'Mapped port of rule 1' }), '2222');
      set(within(panel).getByRole('spinbutton', { name: 'Port of rule 2' }), '80');
      set(within(panel).getByRole('spinbutton', { name: 'Mapped port of rule 2' }), '2222');
      await user.click(within(panel).getByRole('button', { name: 'Save' }));
      expect(
        await within(panel).findByText('The port mapping rules cannot have duplicate ports'),
      ).toBeInTheDocument();
      expect(calls.some((c) => c.method === 'PATCH')).toBe(false);

      set(within(panel).getByRole('spinbutton', { name: 'Mapped port of rule 2' }), '99999');
      set(number, '2');
      await user.click(within(panel).getAllByRole('combobox', { name: 'Unit' })[0] as HTMLElement);
      await pick('Hour');
      await user.click(within(panel).getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Update successfully!')).toBeInTheDocument();
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
        name: 'Lab',
        max_tunnel_expire_time: 7200,
        is_open_map: false,
        port_map_info: [
          { ip_name: '', origin_port: 22, map_port: 2222 },
          { ip_name: '', origin_port: 80, map_port: 65535 },
        ],
      });
    },
    SLOW,
  );
});

describe('Scan Import', () => {
  it(
    'accepts only a range with a prefix of 24 to 32',
    async () => {
      const user = userEvent.setup({ delay: null });
      serve();
      renderApp('/settings/cluster/3?type=ecs');
      await user.click(await screen.findByRole('button', { name: /Scan Import/ }));
      const panel = await findDialog('Scan Import');
      const cidr = within(panel).getByRole('textbox', { name: 'Scan range' });
      set(cidr, '10.0.0.0/16');
      expect(
        await within(panel).findByText('e.g. 192.168.1.0/24, and only supports 24-32'),
      ).toBeInTheDocument();
      set(cidr, '10.0.0.0/24');
      await waitFor(() =>
        expect(
          within(panel).queryByText('e.g. 192.168.1.0/24, and only supports 24-32'),
        ).not.toBeInTheDocument(),
      );
      await user.click(within(panel).getByRole('radio', { name: 'Windows' }));
      expect(within(panel).getByRole('spinbutton', { name: 'Port' })).toHaveValue('3389');
      expect(within(panel).getByRole('textbox', { name: 'User name' })).toHaveValue(
        'administrator',
      );
    },
    SLOW,
  );
});

// Add Instance and Instance setting: InstanceLogins.test.tsx renders the form on its own.

describe('Add Database', () => {
  it(
    'sets the default port of each type and checks the database names',
    async () => {
      const user = userEvent.setup({ delay: null });
      const { calls } = serve();
      renderApp('/settings/cluster/3?type=rds');
      await user.click(await screen.findByRole('button', { name: /^plus Add$/ }));
      const panel = await findDialog('Add Database');
      expect(within(panel).getByRole('spinbutton', { name: 'Port' })).toHaveValue('3306');
      await user.click(within(panel).getByRole('combobox', { name: 'Type' }));
      await pick('PostgreSQL');
      expect(within(panel).getByRole('spinbutton', { name: 'Port' })).toHaveValue('5432');
      await user.click(within(panel).getByRole('combobox', { name: 'Type' }));
      await pick('SQL Server');
      expect(within(panel).getByRole('spinbutton', { name: 'Port' })).toHaveValue('1433');
      set(within(panel).getByRole('textbox', { name: 'Database names' }), 'a;*');
      expect(
        await within(panel).findByText('Database name format is incorrect'),
      ).toBeInTheDocument();
      set(within(panel).getByRole('textbox', { name: 'Database names' }), 'sales;hr');
      set(within(panel).getByRole('textbox', { name: 'Resource name' }), 'erp');
      set(within(panel).getByRole('textbox', { name: 'IP or link' }), 'db.local');
      set(within(panel).getByRole('textbox', { name: 'User name' }), 'sa');
      set(within(panel).getByLabelText('Password'), 'pw');
      await user.click(within(panel).getByRole('button', { name: 'Add' }));
      expect(await screen.findByText('Add Successfully!')).toBeInTheDocument();
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        network_id: 3,
        os: 'mssql',
        password: 'pw',
        name: 'erp',
        ip_address: 'db.local',
        port: 1433,
        username: 'sa',
        databases: 'sales;hr',
      });
    },
    SLOW,
  );

  it(
    'asks TLS to a PostgreSQL database verified against pasted CA certificates',
    async () => {
      const user = userEvent.setup({ delay: null });
      const { calls } = serve();
      renderApp('/settings/cluster/3?type=rds');
      await user.click(await screen.findByRole('button', { name: /^plus Add$/ }));
      const panel = await findDialog('Add Database');
      await user.click(within(panel).getByRole('combobox', { name: 'Type' }));
      await pick('PostgreSQL');
      expect(
        within(panel).getByText(/uses TLS if the database offers it, without checking/),
      ).toBeInTheDocument();
      expect(within(panel).queryByRole('textbox', { name: 'CA certificates' })).toBeNull();
      await user.click(within(panel).getByRole('combobox', { name: 'TLS to the database' }));
      await pick('Required, certificate verified');
      expect(
        within(panel).getByText(/chain up to a root CA certificate below/),
      ).toBeInTheDocument();
      const ca = within(panel).getByRole('textbox', { name: 'CA certificates' });
      set(ca, 'not a certificate');
      expect(await within(panel).findByText(/Paste CA certificates in PEM/)).toBeInTheDocument();
      const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
      set(ca, `${pem}\n`);
      set(within(panel).getByRole('textbox', { name: 'Database names' }), 'billing');
      set(within(panel).getByRole('textbox', { name: 'Resource name' }), 'billing');
      set(within(panel).getByRole('textbox', { name: 'IP or link' }), 'db.local');
      set(within(panel).getByRole('textbox', { name: 'User name' }), 'app');
      set(within(panel).getByLabelText('Password'), 'pw');
      await user.click(within(panel).getByRole('button', { name: 'Add' }));
      expect(await screen.findByText('Add Successfully!')).toBeInTheDocument();
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        network_id: 3,
        os: 'postgresql',
        password: 'pw',
        name: 'billing',
        ip_address: 'db.local',
        port: 5432,
        username: 'app',
        databases: 'billing',
        tls_mode: 'verify',
        tls_ca: pem,
      });
    },
    SLOW,
  );
});
