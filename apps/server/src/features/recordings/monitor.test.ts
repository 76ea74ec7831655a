/**
 * Watching an online terminal session (GET /v1/tunnel_connection/:id/monitor): whole lines as
 * they arrive from an offset, typed input only for the roles that may see it, the end of the
 * session, big backlogs in pieces, and who may watch what.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONITOR_CHUNK_BYTES, type MonitorReply } from '@portcullis/contract';
import {
  addMember,
  createTestApp,
  signedIn,
  type TestApp,
  type TestClient,
} from '../../test/harness';
import { createOtherTeam, otherTeamAdmin } from '../team/test-fixtures';
import { recordingStore } from './tiered-store';

const HEADER = '{"version":2,"width":100,"height":30}\n';
const TYPED = '[0.5,"i","ls\\r"]\n';
const SHOWN = '[0.6,"o","hello monitor\\r\\n"]\n';

describe('GET /v1/tunnel_connection/:id/monitor', () => {
  let t: TestApp;
  let admin: TestClient;
  let opt: TestClient;
  let erin: TestClient;
  let other: TestClient;
  let live: number;
  let database: number;

  const session = async (way: string, ended_at: number | null = null) =>
    (
      await t.ctx.db
        .insertInto('tunnel_connection')
        .values({
          company_id: 1,
          account_id: 1,
          resource_id: null,
          created_at: Math.floor(Date.now() / 1000),
          ended_at,
          way,
          client_ip: '127.0.0.1',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const append = (id: number, offset: number, text: string) =>
    recordingStore(t.ctx).write({ companyId: 1, connectionId: id }, offset, Buffer.from(text), {
      recorded: offset > 0,
    });
  const watch = async (c: TestClient, id: number, offset = 0) => {
    const res = await c.get(`/api/v1/tunnel_connection/${id}/monitor?offset=${offset}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as MonitorReply;
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await signedIn(t);
    await addMember(t, 'opt@demo.local', 3);
    await addMember(t, 'erin@demo.local', 0);
    opt = await signedIn(t, 'opt@demo.local', 'Member#Pass1');
    erin = await signedIn(t, 'erin@demo.local', 'Member#Pass1');
    await createOtherTeam(t);
    other = await otherTeamAdmin(t);
    live = await session('terminal');
    database = await session('mysql');
  });
  afterAll(() => t.close());

  it('says a session without a recording yet is live and has nothing to show', async () => {
    expect(await watch(admin, live)).toEqual({ live: true, offset: 0, cast: '', more: false });
  });

  it('gives whole lines from the offset as they arrive', async () => {
    // The last line is still arriving: it is not given until its newline is there.
    await append(live, 0, `${HEADER}${TYPED}${SHOWN}[0.7,"o","part`);
    const first = await watch(admin, live);
    // Typed input never: the screen shows the terminal's echo of it.
    expect(first).toEqual({
      live: true,
      offset: Buffer.byteLength(HEADER + TYPED + SHOWN),
      cast: HEADER + SHOWN,
      more: false,
    });
    expect(await watch(admin, live, first.offset)).toMatchObject({
      cast: '',
      offset: first.offset,
    });
    const size = Buffer.byteLength(`${HEADER}${TYPED}${SHOWN}[0.7,"o","part`);
    await append(live, size, 'ly there\\r\\n"]\n');
    const next = await watch(admin, live, first.offset);
    expect(next.cast).toBe('[0.7,"o","partly there\\r\\n"]\n');
  });

  it('leaves out what was typed for every role, and starts a cut line at the next one', async () => {
    const rest = `${HEADER}${SHOWN}[0.7,"o","partly there\\r\\n"]\n`;
    expect((await watch(opt, live)).cast).toBe(rest);
    // An offset inside the input line (a chosen one) gives no piece of it.
    const inside = Buffer.byteLength(HEADER) + 3;
    const piece = await watch(opt, live, inside);
    expect(piece.cast).toBe(`${SHOWN}[0.7,"o","partly there\\r\\n"]\n`);
  });

  it('gives nothing of a line an offset falls inside while the line is still arriving', async () => {
    const racing = await session('terminal');
    const head = `${HEADER}[0.5,"i","hunt`;
    await append(racing, 0, head);
    const inside = Buffer.byteLength(HEADER) + 3;
    expect(await watch(opt, racing, inside)).toMatchObject({ cast: '', offset: inside });
    await append(racing, Buffer.byteLength(head), 'er2\\r"]\n[0.6,"o","after"]\n');
    expect((await watch(opt, racing, inside)).cast).toBe('[0.6,"o","after"]\n');
  });

  it('says when the session has ended, and is closed to watchers soon after', async () => {
    const now = Math.floor(Date.now() / 1000);
    const ended = await session('wetty', now);
    await append(ended, 0, HEADER + SHOWN);
    expect(await watch(admin, ended)).toMatchObject({ live: false, cast: HEADER + SHOWN });
    // A recording is read through the action log by the roles that may, not here.
    const old = await session('terminal', now - 60);
    await append(old, 0, HEADER + SHOWN);
    const res = await opt.get(`/api/v1/tunnel_connection/${old}/monitor`);
    expect(res.json().code).toBe('ConnectionIDNotFound');
  });

  it('starts a long session near its end, and hands a backlog over in pieces of whole lines', async () => {
    const long = await session('terminal');
    const line = `[1.0,"o","${'x'.repeat(1000)}"]\n`;
    const lines = Math.ceil((MONITOR_CHUNK_BYTES * 2.5) / line.length);
    await append(long, 0, HEADER + line.repeat(lines));
    const size = Buffer.byteLength(HEADER + line.repeat(lines));
    // A first look: the header, then whole lines of the last 256 KiB, live at once.
    const first = await watch(admin, long);
    expect(first.cast.startsWith(HEADER + line)).toBe(true);
    expect(first.cast.length).toBeLessThanOrEqual(HEADER.length + 256 * 1024);
    expect(first).toMatchObject({ offset: size, more: false });
    // From a line's start, everything after it, a chunk an answer.
    let offset = Buffer.byteLength(HEADER);
    let got = '';
    let answers = 0;
    for (let more = true; more; answers++) {
      const piece = await watch(admin, long, offset);
      expect(piece.cast.endsWith('\n')).toBe(true);
      got += piece.cast;
      ({ offset, more } = piece);
    }
    expect(answers).toBe(3);
    expect(got).toBe(line.repeat(lines));
  });

  it('refuses a session with no terminal, another team’s, and members', async () => {
    const db = await admin.get(`/api/v1/tunnel_connection/${database}/monitor`);
    expect(db.json().code).toBe('InvalidParameter');
    const theirs = await other.get(`/api/v1/tunnel_connection/${live}/monitor`);
    expect(theirs.json().code).toBe('ConnectionIDNotFound');
    const member = await erin.get(`/api/v1/tunnel_connection/${live}/monitor`);
    expect(member.statusCode).toBe(403);
  });
});
