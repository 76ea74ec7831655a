/**
 * The web terminal end to end: the real server issues the token, the real gateway (startGateway
 * with its web terminal on a free loopback port) redeems it, and the real OpenSSH sshd is the
 * target; the `ws` client plays the browser's part (xterm.js sends and reads the same frames).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  LOG_FILTER_HIDDEN,
  WEB_TERMINAL_WINDOW_BYTES,
  type WebTerminalServerMessage,
} from '@portcullis/contract';
import { startGateway, type Gateway } from '../../../../gateway/src/control/client';
import { startSshd, type SshdPeer } from '../../../../../scripts/peers/sshd.mjs';
import { createTestApp, signedIn, type TestApp, type TestClient } from '../../test/harness';
import {
  addMembersTo,
  addResourcesTo,
  clusterKey,
  createWorkgroup,
  member,
  projectResourceId,
} from '../workgroups/test-fixtures';
import { createWebTerminalTokens, setWebTerminalTokens } from '../web-terminal/tokens';
import { freePort } from '../../../../gateway/src/test/net';
import { cutSessions } from './connections-service';

const until = async (check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** The browser's side: text frames are JSON, binary frames are terminal output. */
interface Terminal {
  ws: WebSocket;
  output(): string;
  /** Output bytes received so far. */
  received(): number;
  messages: WebTerminalServerMessage[];
  closed: Promise<{ code: number; reason: string }>;
  type(text: string): void;
}

/** `auth`: more of the auth message (`ack: true`, as the console sends). */
function openTerminal(
  url: string,
  token: string,
  size = { cols: 80, rows: 24 },
  auth: { ack?: boolean } = {},
): Terminal {
  const ws = new WebSocket(url);
  const decoder = new TextDecoder();
  let text = '';
  let received = 0;
  const messages: WebTerminalServerMessage[] = [];
  ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token, ...size, ...auth })));
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary) {
      received += data.length;
      text += decoder.decode(data, { stream: true });
    } else messages.push(JSON.parse(data.toString()) as WebTerminalServerMessage);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return {
    ws,
    output: () => text,
    received: () => received,
    messages,
    closed,
    type: (input) => ws.send(Buffer.from(input), { binary: true }),
  };
}

describe('the web terminal with a real gateway and sshd', () => {
  let t: TestApp;
  let admin: TestClient;
  let erin: { id: number; client: TestClient };
  let frank: { id: number; client: TestClient };
  let gateway: Gateway;
  let sshd: SshdPeer;
  let dir: string;
  let port: number;
  let web: number;
  /** The same sshd as a "team account password" login user (auth_type 2). */
  let teamWeb: number;

  const token = async (who = erin.client) =>
    who.post('/api/web_terminal/token', { project_resource_id: web });
  const liveWetty = () =>
    t.ctx.db
      .selectFrom('tunnel_connection')
      .selectAll()
      .where('account_id', '=', erin.id)
      .where('ended_at', 'is', null)
      .execute();

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-web-terminal-'));
    t = await createTestApp();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await signedIn(t);
    const lab = (await admin.post('/api/v1/network', { name: 'Lab' })).json().id as number;
    const key = await clusterKey(admin, lab);
    sshd = await startSshd();
    const server = await admin.post('/api/v1/resource', {
      network_id: lab,
      name: 'sshd',
      ip_address: '127.0.0.1',
      os: 'linux',
      port: sshd.port,
      login_users: [{ username: sshd.user, auth_type: 0, password: sshd.password }],
    });
    expect(server.statusCode, server.body).toBe(200);
    const wg = await createWorkgroup(admin, 'Terminal');
    await addResourcesTo(admin, wg, [server.json().id as number]);
    erin = await member(t, 'erin@demo.local');
    frank = await member(t, 'frank@demo.local');
    await addMembersTo(admin, wg, [erin.id, frank.id]);
    web = await projectResourceId(admin, wg, server.json().id as number);
    const team = await admin.post('/api/v1/resource', {
      network_id: lab,
      name: 'team-sshd',
      ip_address: '127.0.0.1',
      os: 'linux',
      port: sshd.port,
      login_users: [{ username: sshd.user, auth_type: 2 }],
    });
    expect(team.statusCode, team.body).toBe(200);
    await addResourcesTo(admin, wg, [team.json().id as number]);
    teamWeb = await projectResourceId(admin, wg, team.json().id as number);

    port = await freePort();
    gateway = startGateway({
      server: address,
      key,
      host: '127.0.0.1',
      ports: { webssh_port: port },
      webTerminal: { dataDir: path.join(dir, 'gateway'), listenHost: '127.0.0.1' },
    });
    await gateway.connected;
    expect(await gateway.webTerminal).toEqual({ port });
    for (const project_resource_id of [web, teamWeb]) {
      const code = await erin.client.post('/api/tunnel', { project_resource_id });
      expect(code.statusCode, code.body).toBe(200);
    }
    // A cluster log filter: the recording stores its lines as a placeholder.
    const filter = await admin.post('/api/log_filter', { network_id: lab, condition: 'Hush' });
    expect(filter.statusCode, filter.body).toBe(200);
  });
  afterAll(async () => {
    await gateway?.stop();
    await sshd?.stop();
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('issues a token and opens a shell: echo round trip, resize, online as wetty, recorded', async () => {
    const res = await token();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const issued = res.json() as { token: string; url: string; expire_time: number };
    expect(issued.url).toBe(`ws://127.0.0.1:${port}/terminal`);
    expect(issued.token.length).toBeGreaterThanOrEqual(22); // ≥ 128 bits of base64url
    expect(issued.expire_time - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(60);

    const term = openTerminal(issued.url, issued.token);
    await until(() => term.messages.some((m) => m.type === 'ready'));
    expect(term.messages[0]).toMatchObject({ type: 'ready', username: sshd.user });
    term.type('echo hi-$((6*7))\r');
    await until(() => term.output().includes('hi-42'));

    term.ws.send(JSON.stringify({ type: 'resize', cols: 132, rows: 40 }));
    term.type('stty size\r');
    await until(() => term.output().includes('40 132'));
    term.type('printf "\\344\\275\\240\\345\\245\\275\\n"\r');
    await until(() => term.output().includes('你好'));
    term.type('echo hush-$((2+2))\r');
    await until(() => term.output().includes('hush-4'));

    const rows = await liveWetty();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ way: 'wetty', client_ip: '127.0.0.1' });
    const connectionId = rows[0]!.id;

    term.type('exit\r');
    const closed = await term.closed;
    expect(closed).toEqual({ code: 1000, reason: 'SessionEnded' });
    expect(term.messages.at(-1)).toMatchObject({ type: 'closed', code: 'SessionEnded' });
    await until(async () => (await liveWetty()).length === 0);

    expect(await gateway.recordings!.idle(10_000)).toBe(true);
    const cast = await admin.get(`/api/download_tunnel_log?connection_id=${connectionId}`);
    expect(cast.statusCode, cast.body).toBe(200);
    const [header, ...events] = cast.body.trim().split('\n');
    expect(JSON.parse(header!)).toMatchObject({ version: 2, width: 80, height: 24 });
    expect(cast.body).toContain('hi-42');
    expect(events.some((e) => JSON.parse(e)[1] === 'r')).toBe(true);
    expect(cast.body).toContain(LOG_FILTER_HIDDEN.line);
    expect(cast.body.toLowerCase()).not.toContain('hush');
  });

  it('spends a token once', async () => {
    const issued = (await token()).json() as { token: string; url: string };
    const first = openTerminal(issued.url, issued.token);
    await until(() => first.messages.some((m) => m.type === 'ready'));
    const second = openTerminal(issued.url, issued.token);
    expect(await second.closed).toEqual({ code: 4403, reason: 'TunnelNotFound' });
    expect(second.messages).toEqual([
      expect.objectContaining({ type: 'closed', code: 'TunnelNotFound' }),
    ]);
    first.ws.close();
    await first.closed;
  });

  it('refuses an expired token, an unknown one, and a first frame without a token', async () => {
    // A clock this test moves: the server's own clock must stay true for the gateway's sake.
    let skew = 0;
    setWebTerminalTokens(
      t.ctx,
      createWebTerminalTokens(() => Date.now() + skew),
    );
    const issued = (await token()).json() as { token: string; url: string };
    skew = 61_000;
    const late = openTerminal(issued.url, issued.token);
    expect(await late.closed).toEqual({ code: 4403, reason: 'TunnelNotFound' });
    const made = openTerminal(issued.url, 'A'.repeat(32));
    expect((await made.closed).code).toBe(4403);
    const ws = new WebSocket(issued.url);
    ws.on('open', () => ws.send('hello'));
    const code = await new Promise<number>((resolve) => ws.on('close', (c) => resolve(c)));
    expect(code).toBe(4403);
  });

  it('gives no token for another member’s code, nor to a member without one', async () => {
    // frank is in the workgroup; only erin has a code for the server.
    const res = await token(frank.client);
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().code).toBe('TunnelNotFound');
    const outsider = await member(t, 'gina@demo.local');
    const denied = await token(outsider.client);
    expect(denied.statusCode).toBe(404);
  });

  it('ends the terminal when the server cuts the session, saying so', async () => {
    const issued = (await token()).json() as { token: string; url: string };
    const term = openTerminal(issued.url, issued.token);
    await until(() => term.messages.some((m) => m.type === 'ready'));
    const ready = term.messages.find((m) => m.type === 'ready');
    const id = ready!.type === 'ready' ? ready!.connection_id : 0;
    await cutSessions(t.ctx, [id], 'SessionCutFromConsole');
    expect(await term.closed).toEqual({ code: 4001, reason: 'SessionCut' });
    // The reason as a catalogue code the console translates (before: English text only).
    expect(term.messages.at(-1)).toEqual({
      type: 'closed',
      code: 'SessionCut',
      reason: 'SessionCutFromConsole',
      message: 'The session was ended by the server: Disconnected from the console',
    });
    await until(async () => (await liveWetty()).length === 0);
  });

  it('stops reading the target while the browser does not read (flow control)', async () => {
    const issued = (await token()).json() as { token: string; url: string };
    const term = openTerminal(issued.url, issued.token);
    await until(() => term.messages.some((m) => m.type === 'ready'));
    const done = path.join(os.tmpdir(), `pc-flow-${process.pid}-${Date.now()}`);
    term.type(`head -c 20000000 /dev/zero | base64 -w 0; touch ${done}; echo; echo FLOW-END\r`);
    await until(() => term.output().includes('FLOW-END'.slice(0, 4)));
    // The browser stops reading: the gateway's buffer fills, it pauses the target's channel,
    // and the SSH window stops the remote command before it can finish.
    term.ws.pause();
    await new Promise((r) => setTimeout(r, 3000));
    expect(fs.existsSync(done)).toBe(false);
    term.ws.resume();
    await until(() => /FLOW-END\r?\n/.test(term.output().slice(-200)), 30_000);
    expect(fs.existsSync(done)).toBe(true);
    fs.rmSync(done, { force: true });
    term.ws.close();
    await term.closed;
  });

  it('keeps at most a window of output undrawn for a browser that says what it drew', async () => {
    const issued = (await token()).json() as { token: string; url: string };
    const term = openTerminal(issued.url, issued.token, undefined, { ack: true });
    await until(() => term.messages.some((m) => m.type === 'ready'));
    const done = path.join(os.tmpdir(), `pc-ack-${process.pid}-${Date.now()}`);
    term.type(`head -c 20000000 /dev/zero | base64 -w 0; touch ${done}; echo; echo ACK-END\r`);
    // This browser reads everything it is sent (its socket is not paused) but draws nothing:
    // the gateway stops at the window, and the target's SSH window stops the command.
    await until(() => term.received() > WEB_TERMINAL_WINDOW_BYTES / 2);
    await new Promise((r) => setTimeout(r, 3000));
    expect(term.received()).toBeLessThan(WEB_TERMINAL_WINDOW_BYTES + 128 * 1024);
    expect(fs.existsSync(done)).toBe(false);
    // It draws what it has, acknowledging as the console does: the rest comes through.
    let acked = 0;
    const drawing = setInterval(() => {
      const bytes = term.received() - acked;
      if (bytes <= 0) return;
      acked += bytes;
      term.ws.send(JSON.stringify({ type: 'ack', bytes }));
    }, 20);
    try {
      await until(() => /ACK-END\r?\n/.test(term.output().slice(-200)), 60_000);
    } finally {
      clearInterval(drawing);
    }
    expect(fs.existsSync(done)).toBe(true);
    expect(term.received()).toBeGreaterThan(20_000_000);
    fs.rmSync(done, { force: true });
    term.ws.close();
    await term.closed;
  });

  it('asks for a team-account-password login user’s password in the terminal, unrecorded', async () => {
    const issued = (
      await erin.client.post('/api/web_terminal/token', { project_resource_id: teamWeb })
    ).json() as { token: string; url: string };
    const term = openTerminal(issued.url, issued.token);
    const prompt = `Password for ${sshd.user}@team-sshd: `;
    await until(() => term.output().includes(prompt));
    // Not echoed; Backspace edits; a wrong one asks again.
    term.type('wrong-secret\r');
    await until(() => term.output().includes('the server refused the password; try again'));
    await until(() => term.output().split(prompt).length === 3);
    term.type(`${sshd.password}x\x7f\r`);
    await until(() => term.messages.some((m) => m.type === 'ready'));
    expect(term.output()).not.toContain('wrong-secret');
    expect(term.output()).not.toContain(sshd.password);
    term.type('echo team-$((6*7))\r');
    await until(() => term.output().includes('team-42'));
    const [row] = await liveWetty();
    term.type('exit\r');
    expect(await term.closed).toEqual({ code: 1000, reason: 'SessionEnded' });

    expect(await gateway.recordings!.idle(10_000)).toBe(true);
    const cast = await admin.get(`/api/download_tunnel_log?connection_id=${row!.id}`);
    expect(cast.body).toContain('team-42');
    expect(cast.body).not.toContain('wrong-secret');
    expect(cast.body).not.toContain(sshd.password);
    expect(t.logs()).not.toContain('wrong-secret');
  });

  it('pins the host key at the first web session and refuses a server showing another', async () => {
    const resourceId = (
      await t.ctx.db
        .selectFrom('project_resource')
        .select('resource_id')
        .where('id', '=', web)
        .executeTakeFirstOrThrow()
    ).resource_id;
    const hostKey = async () =>
      (await admin.get(`/api/v1/resource/${resourceId}`)).json().host_key as string | null;
    await until(async () => (await hostKey()) !== null);
    const pinned = await hostKey();
    expect(pinned).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    await t.ctx.db
      .updateTable('resource')
      .set({ host_key: `SHA256:${'C'.repeat(43)}` })
      .where('id', '=', resourceId)
      .execute();
    try {
      const issued = (await token()).json() as { token: string; url: string };
      const term = openTerminal(issued.url, issued.token);
      expect((await term.closed).code).toBe(4403);
      expect(term.messages.at(-1)).toMatchObject({ type: 'closed', code: 'HostKeyChanged' });
      expect(await liveWetty()).toEqual([]);
    } finally {
      await t.ctx.db
        .updateTable('resource')
        .set({ host_key: pinned })
        .where('id', '=', resourceId)
        .execute();
    }
  });

  it('ends the terminal when the member cancels the password prompt or fails three times', async () => {
    const open = async () => {
      const issued = (
        await erin.client.post('/api/web_terminal/token', { project_resource_id: teamWeb })
      ).json() as { token: string; url: string };
      const term = openTerminal(issued.url, issued.token);
      await until(() => term.output().includes('Password for'));
      return term;
    };
    const cancelled = await open();
    cancelled.type('half\x03');
    expect((await cancelled.closed).code).toBe(4403);
    expect(cancelled.messages.at(-1)).toMatchObject({
      type: 'closed',
      code: 'InvalidResource',
      message: 'The password prompt was cancelled',
    });
    const failing = await open();
    for (let i = 1; i <= 3; i++) {
      await until(() => failing.output().split('Password for').length === i + 1);
      failing.type('nope\r');
    }
    expect((await failing.closed).code).toBe(4403);
    expect(failing.messages.at(-1)).toMatchObject({ type: 'closed', code: 'InvalidResource' });
    expect(await liveWetty()).toEqual([]);
  });

  it('lets the target go when the browser leaves while the typed password is tried', async () => {
    /** The gateway's TCP connections to the target sshd (this process holds the gateway). */
    const toTarget = (): number =>
      ['/proc/net/tcp', '/proc/net/tcp6']
        .flatMap((file) => fs.readFileSync(file, 'utf8').split('\n').slice(1))
        .map((line) => line.trim().split(/\s+/))
        .filter(
          ([, , remote, state]) =>
            state === '01' &&
            remote?.endsWith(`:${sshd.port.toString(16).toUpperCase().padStart(4, '0')}`),
        ).length;
    await until(async () => (await liveWetty()).length === 0 && toTarget() === 0);
    const issued = (
      await erin.client.post('/api/web_terminal/token', { project_resource_id: teamWeb })
    ).json() as { token: string; url: string };
    const term = openTerminal(issued.url, issued.token);
    await until(() => term.output().includes('Password for'));
    term.type(`${sshd.password}\r`);
    // The tab is closed while the gateway logs in with it.
    term.ws.terminate();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Before, the logged-in connection stayed open (with nothing to end it).
    await until(() => toTarget() === 0, 5000);
    expect(await liveWetty()).toEqual([]);
  });

  it('never logs a token or a code', async () => {
    const issued = (await token()).json() as { token: string };
    expect(t.logs()).not.toContain(issued.token);
    expect(t.logs()).not.toContain(sshd.password);
  });
});
