/**
 * The instance panel's login users (one row per username with its own authentication, password
 * and test result), key upload and key test, the update-tip snooze and the OS support panel.
 * Forms render on their own (no page, no shell) to keep antd in jsdom fast.
 */
import { useEffect, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { POLL_KEY_TEST_MS, POLL_KEY_UPLOAD_MS, type Resource } from '@portcullis/contract';
import { PanelProvider } from '../../shared/panel/PanelProvider';
import { usePanel } from '../../shared/panel/panel-context';
import { mockApi, type RecordedCall } from '../../test/api-mock';
import { findDialog, renderInApp } from '../../test/render';
import { InstanceForm } from './components/InstancePanel';
import { OS_SUPPORT_PANEL, OsSupportPanel } from './components/OsSupportPanel';
import { authLocked, loginUsersBody, syncRows } from './login-users';
import { nextMidnight, useUpdateTipSnooze } from './update-tip';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

function set(input: HTMLElement, value: string): void {
  fireEvent.change(input, { target: { value } });
}

function server(overrides: Partial<Resource> = {}): Resource {
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
    extension: {
      username: ['root', 'deploy'],
      data: [
        { username: 'root', auth_type: 0, test_result: 'enable' },
        { username: 'deploy', auth_type: 0, test_result: 'disable' },
      ],
    },
    username: '',
    databases: [],
    status: 1,
    create_time: 1_700_000_000,
    host_key: null,
    tls_mode: null,
    tls_ca: null,
    ...overrides,
  };
}

function form(resource?: Resource): ReactNode {
  return (
    <PanelProvider>
      <InstanceForm clusterId={3} resource={resource} panelKey="panel/test" available />
    </PanelProvider>
  );
}

const rowOf = (user: string): HTMLElement =>
  screen.getByRole('group', { name: `Login user ${user}` });

/** The options of the open Select dropdown: title and whether it can be picked. */
async function openOptions(combobox: HTMLElement): Promise<Record<string, boolean>> {
  fireEvent.mouseDown(combobox);
  let options: Record<string, boolean> = {};
  await waitFor(() => {
    const list = [
      ...document.querySelectorAll(
        '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option',
      ),
    ];
    if (list.length === 0) throw new Error('no open dropdown');
    options = Object.fromEntries(
      list.map((o) => [
        o.getAttribute('title') ?? '',
        !o.classList.contains('ant-select-item-option-disabled'),
      ]),
    );
  });
  return options;
}

async function pick(title: string): Promise<void> {
  await waitFor(() => {
    const option = [
      ...document.querySelectorAll(
        '.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option',
      ),
    ].find((o) => o.getAttribute('title') === title);
    if (!option) throw new Error(`no option ${title}`);
    fireEvent.click(option);
  });
}

describe('login user rows', () => {
  it('follow the usernames field and send each user its own authentication', () => {
    const rows = syncRows('root; deploy;root', []);
    expect(rows).toEqual([
      { username: 'root', auth_type: 0 },
      { username: 'deploy', auth_type: 0 },
    ]);
    const typed = [
      { username: 'root', auth_type: 0 as const, password: 'secret' },
      { username: 'deploy', auth_type: 1 as const, password: 'ignored' },
    ];
    // A row keeps what was typed; a saved user comes back with its stored choice.
    expect(syncRows('deploy;ops', typed, [{ username: 'ops', auth_type: 2 }])).toEqual([
      typed[1],
      { username: 'ops', auth_type: 2 },
    ]);
    expect(loginUsersBody([...typed, { username: 'ops', auth_type: 0, password: '' }])).toEqual([
      { username: 'root', auth_type: 0, password: 'secret' },
      { username: 'deploy', auth_type: 1 },
      { username: 'ops', auth_type: 0 },
    ]);
    expect([null, 'enable', 'disable', 'pending'].map((r) => authLocked(r as never))).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });

  it('Add Instance: checks the fields, one row per username, Windows has no SSH key', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi({ 'POST /api/v1/resource': server() });
    renderInApp(form());
    const name = await screen.findByRole('textbox', { name: 'Resource name' });
    expect(screen.getByRole('spinbutton', { name: 'Port' })).toHaveValue('22');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('Please input the resource name')).toBeInTheDocument();
    set(screen.getByRole('textbox', { name: 'Inner IP' }), '10.0.0');
    expect(
      await screen.findByText('Please input the right inner IP (four groups of digits or *)'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Windows' }));
    expect(screen.getByRole('spinbutton', { name: 'Port' })).toHaveValue('3389');
    expect(screen.getByRole('textbox', { name: 'Login users' })).toHaveValue('administrator');
    const administrator = await screen.findByRole('group', { name: 'Login user administrator' });
    expect(
      await openOptions(
        within(administrator).getByRole('combobox', { name: 'Authentication of administrator' }),
      ),
    ).toEqual({ 'Host password': true, 'Team account password': true });
    await user.click(screen.getByRole('radio', { name: 'Linux' }));
    // Linux's own user and row first: typing the users before they land let the switch's
    // rows overwrite them on a busy machine (a row "administrator" beside "deploy").
    await screen.findByRole('group', { name: 'Login user root' });
    expect(screen.getByRole('textbox', { name: 'Login users' })).toHaveValue('root');

    set(name, ' web ');
    set(screen.getByRole('textbox', { name: 'Inner IP' }), '10.0.*.5');
    set(screen.getByRole('textbox', { name: 'Login users' }), 'root;deploy');
    await screen.findByRole('group', { name: 'Login user deploy' });
    await waitFor(() =>
      expect(screen.getAllByRole('group').map((g) => g.getAttribute('aria-label'))).toEqual([
        'Login user root',
        'Login user deploy',
      ]),
    );
    set(within(rowOf('root')).getByLabelText('Host password of root'), 'secret');
    const deployAuth = within(rowOf('deploy')).getByRole('combobox', {
      name: 'Authentication of deploy',
    });
    // Nothing tested yet: every way can be chosen.
    expect(await openOptions(deployAuth)).toEqual({
      'Host password': true,
      'SSH key': true,
      'Team account password': true,
    });
    await pick('Team account password');
    await waitFor(() =>
      expect(within(rowOf('deploy')).queryByLabelText('Host password of deploy')).toBeNull(),
    );
    // No test or key buttons before the server exists.
    expect(screen.queryByRole('button', { name: /Upload the key/ })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      network_id: 3,
      name: 'web',
      ip_address: '10.0.*.5',
      os: 'linux',
      port: 22,
      login_users: [
        { username: 'root', auth_type: 0, password: 'secret' },
        { username: 'deploy', auth_type: 2 },
      ],
    });
  });

  it('Instance setting: SSH key and team account are locked where the test failed', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi({
      'PATCH /api/v1/resource/9': server(),
      'POST /api/service_connection_test': { task_id: 't-1' },
      'GET /api/query_service_connection_test': { status: 'pending', reason: '' },
    });
    renderInApp(form(server()));
    const root = await screen.findByRole('group', { name: 'Login user root' });
    expect(within(root).getByText('yes')).toBeInTheDocument();
    expect(within(rowOf('deploy')).getByText('no')).toBeInTheDocument();
    expect(
      within(rowOf('deploy')).getByText(
        'SSH key and team account password can be chosen once the connectivity test of this user is neither failed nor running.',
      ),
    ).toBeInTheDocument();
    expect(
      await openOptions(within(rowOf('deploy')).getByRole('combobox', { name: /deploy/ })),
    ).toEqual({ 'Host password': true, 'SSH key': false, 'Team account password': false });
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });

    expect(await openOptions(within(root).getByRole('combobox', { name: /root/ }))).toEqual({
      'Host password': true,
      'SSH key': true,
      'Team account password': true,
    });
    await pick('SSH key');
    expect(
      await within(root).findByText(/upload it to the host with Upload key/),
    ).toBeInTheDocument();

    // A test running for root locks its choices again until it answers.
    await user.click(within(root).getByRole('button', { name: 'Test the connection of root' }));
    expect(await within(root).findByLabelText('Testing')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        within(root).getByText(/neither failed nor running/, { exact: false }),
      ).toBeInTheDocument(),
    );

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      name: 'web',
      ip_address: '10.0.0.5',
      port: 22,
      login_users: [
        { username: 'root', auth_type: 1 },
        { username: 'deploy', auth_type: 0 },
      ],
    });
  });
});

describe('host key', () => {
  const PINNED = `SHA256:${'x'.repeat(43)}`;

  it('shows the pinned host key and forgets it only after confirmation', async () => {
    const user = userEvent.setup({ delay: null });
    const { calls } = mockApi({ 'PATCH /api/v1/resource/9': server() });
    renderInApp(form(server({ host_key: PINNED })));
    expect(await screen.findByText(PINNED)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Forget' }));
    expect(await screen.findByText('Forget this host key?')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
    const confirm = document.querySelector<HTMLElement>('.ant-popconfirm .ant-btn-dangerous');
    await user.click(confirm!);
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ host_key: null });
    expect(await screen.findByText(/Host key forgotten/)).toBeInTheDocument();
  });

  it('says when none is pinned yet, and shows nothing for Windows', () => {
    const { unmount } = renderInApp(form(server()));
    expect(screen.getByText(/Not pinned yet/)).toBeInTheDocument();
    unmount();
    renderInApp(form(server({ os: 'win32', resource_type: 'WinServer' })));
    expect(screen.queryByText('Host key')).toBeNull();
  });
});

/** Answers a key task's polls with `states` in turn (the last one for good), timing them. */
function keyTask(taskId: string, states: { status: string; reason?: string; code?: string }[]) {
  let polls = 0;
  const times: number[] = [];
  const reply = (call: RecordedCall) => {
    expect(call.query.get('task_id')).toBe(taskId);
    times.push(Date.now());
    const state = states[Math.min(polls, states.length - 1)];
    polls += 1;
    return { reason: '', ...state };
  };
  return { reply, times };
}

describe('key upload and key test', () => {
  it('Upload key needs the password, polls every second, shows a failure, closes on success', async () => {
    const user = userEvent.setup({ delay: null });
    const first = keyTask('task-1', [
      { status: 'pending' },
      { status: 'failed', reason: 'auth_failed', code: 'SetAutologinFailed' },
    ]);
    const second = keyTask('task-2', [{ status: 'pending' }, { status: 'success' }]);
    let uploads = 0;
    const { calls } = mockApi({
      'POST /api/resource/9/autologin': () => {
        uploads += 1;
        return { task_id: `task-${uploads}` };
      },
      'GET /api/autologin_query': (call: RecordedCall) =>
        (uploads === 1 ? first : second).reply(call),
    });
    renderInApp(form(server()));
    await user.click(await screen.findByRole('button', { name: 'Upload the key of root' }));
    const dialog = await findDialog('Upload key');
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await within(dialog).findByText('Please input the password')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    const password = within(dialog).getByLabelText('Password of root');
    set(password, 'wrong-one');
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(
      await within(dialog).findByText(
        'Failed to set up key login: the server refused the sign-in',
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
    // The password left the form when the call started.
    expect(within(dialog).getByLabelText('Password of root')).toHaveValue('');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      username: 'root',
      password: 'wrong-one',
    });
    expect(first.times).toHaveLength(2);
    expect((first.times[1] ?? 0) - (first.times[0] ?? 0)).toBeGreaterThanOrEqual(
      POLL_KEY_UPLOAD_MS - 50,
    );

    set(within(dialog).getByLabelText('Password of root'), 'right-one');
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(
      await screen.findByText('The key of root was uploaded', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Password of root')).toBeNull());
    expect(second.times).toHaveLength(2);
    expect(calls.filter((c) => c.path === '/api/autologin_query')).toHaveLength(4);
  });

  it('Key test polls while pending and shows whether key login works', async () => {
    const user = userEvent.setup({ delay: null });
    let answers: { status: string; reason?: string; code?: string }[] = [
      { status: 'pending' },
      { status: 'success' },
    ];
    let tests = 0;
    let polls = 0;
    const { calls } = mockApi({
      'POST /api/resource/9/test_autologin': () => ({ task_id: `kt-${++tests}` }),
      'GET /api/test_autologin_query': () => {
        const answer = answers[Math.min(polls, answers.length - 1)];
        polls += 1;
        return { reason: '', ...answer };
      },
    });
    renderInApp(form(server()));
    const button = await screen.findByRole('button', { name: 'Test the key login of root' });
    await user.click(button);
    expect(await screen.findByLabelText('Testing the key login')).toBeInTheDocument();
    expect(button).toBeDisabled();
    expect(
      await screen.findByText('Key login works', {}, { timeout: POLL_KEY_TEST_MS * 4 }),
    ).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ username: 'root' });
    expect(polls).toBe(2);

    answers = [{ status: 'failed', reason: 'key_refused', code: 'SetAutologinFailed' }];
    polls = 0;
    await user.click(screen.getByRole('button', { name: 'Test the key login of deploy' }));
    expect(await screen.findByText('Key login failed')).toBeInTheDocument();
  });
});

function SnoozeProbe({ clusterId }: { clusterId: number }): ReactNode {
  const [snoozed, snooze] = useUpdateTipSnooze(1, clusterId);
  return (
    <button type="button" onClick={snooze}>
      {snoozed ? 'snoozed' : 'showing'}
    </button>
  );
}

function OpenOsSupport(): ReactNode {
  const panel = usePanel();
  useEffect(() => panel.open(OS_SUPPORT_PANEL), [panel]);
  return <OsSupportPanel />;
}

describe('update tip and OS support', () => {
  it('snoozes the update tip until the next midnight, per account and cluster', async () => {
    renderInApp(
      <>
        <SnoozeProbe clusterId={3} />
        <SnoozeProbe clusterId={4} />
      </>,
    );
    const [three, four] = await screen.findAllByRole('button', { name: 'showing' });
    fireEvent.click(three as HTMLElement);
    expect(three).toHaveTextContent('snoozed');
    expect(four).toHaveTextContent('showing');
    expect(Number(localStorage.getItem('pc.cluster-update-tip.1.3'))).toBe(
      nextMidnight(new Date()),
    );
  });

  it('lists the supported systems in the OS support panel', async () => {
    renderInApp(
      <PanelProvider>
        <OpenOsSupport />
      </PanelProvider>,
    );
    const panel = await findDialog('OS support check list');
    expect(within(panel).getByText('CentOS 7.0 64-bit')).toBeInTheDocument();
    expect(within(panel).getByText('Ubuntu 12.04 64-bit')).toBeInTheDocument();
  });
});
