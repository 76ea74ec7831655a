/**
 * The SSH keys page (spec 1 §2.11, §7): list, add (a real OpenSSH public key, name up to 20),
 * delete. Keys come from the real ssh-keygen, and fingerprints are checked against its own.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember,
  createTestApp,
  signedIn,
  type TestApp,
  type TestClient,
} from '../../test/harness';
import { nowSeconds } from '../../lib/time';
import { createTeam } from '../company/teams';

interface KeyPair {
  pub: string;
  priv: string;
  /** `SHA256:…` as `ssh-keygen -lf` prints it. */
  fingerprint: string;
}

const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pc-keys-'));
let counter = 0;

function keygen(type: 'ed25519' | 'rsa' | 'ecdsa', comment = 'user@laptop'): KeyPair {
  const file = path.join(keyDir, `key${counter++}`);
  const bits = type === 'rsa' ? ['-b', '2048'] : [];
  execFileSync('ssh-keygen', ['-q', '-t', type, ...bits, '-N', '', '-C', comment, '-f', file]);
  const listed = execFileSync('ssh-keygen', ['-lf', `${file}.pub`], { encoding: 'utf8' });
  const fingerprint = listed.split(' ')[1] ?? '';
  return {
    pub: fs.readFileSync(`${file}.pub`, 'utf8'),
    priv: fs.readFileSync(file, 'utf8'),
    fingerprint,
  };
}

async function addKey(c: TestClient, title: string, pubkey: string) {
  return c.post('/api/account_pubkey', { title, pubkey });
}

async function listKeys(c: TestClient, query = '') {
  return (await c.get(`/api/account_pubkey${query}`)).json();
}

describe('SSH keys', () => {
  let t: TestApp;
  let me: TestClient;
  let teammate: TestClient;
  beforeAll(async () => {
    t = await createTestApp();
    await addMember(t, 'keys@demo.local', 0);
    await addMember(t, 'mate@demo.local', 0);
    me = await signedIn(t, 'keys@demo.local', 'Member#Pass1');
    teammate = await signedIn(t, 'mate@demo.local', 'Member#Pass1');
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(keyDir, { recursive: true, force: true });
  });

  it('starts with an empty list', async () => {
    expect(await listKeys(me)).toEqual({ objects: [], num_results: 0, total_pages: 0, page: 1 });
  });

  it('adds an ed25519 key with the fingerprint ssh-keygen gives', async () => {
    const key = keygen('ed25519');
    const res = await addKey(me, '  Laptop  ', key.pub);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      title: 'Laptop',
      key_type: 'ssh-ed25519',
      fingerprint: key.fingerprint,
      last_time: null,
    });
    expect(key.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(Math.abs(body.create_time - nowSeconds())).toBeLessThan(60);
    const row = await t.ctx.db
      .selectFrom('account_pubkey')
      .selectAll()
      .where('id', '=', body.id)
      .executeTakeFirstOrThrow();
    // Stored as `type base64`, the comment dropped.
    expect(row.pubkey).toBe(key.pub.trim().split(' ').slice(0, 2).join(' '));
  });

  it('adds RSA and ECDSA keys too', async () => {
    for (const type of ['rsa', 'ecdsa'] as const) {
      const key = keygen(type);
      const res = await addKey(me, type, key.pub);
      expect(res.statusCode, type).toBe(200);
      expect(res.json()).toMatchObject({
        title: type,
        key_type: type === 'rsa' ? 'ssh-rsa' : 'ecdsa-sha2-nistp256',
        fingerprint: key.fingerprint,
      });
    }
  });

  it('lists the keys newest first, page by page', async () => {
    const all = await listKeys(me);
    expect(all.num_results).toBe(3);
    expect(all.objects.map((k: { title: string }) => k.title)).toEqual(['ecdsa', 'rsa', 'Laptop']);
    const page1 = await listKeys(me, '?page_size=2');
    expect(page1).toMatchObject({ num_results: 3, total_pages: 2, page: 1 });
    expect(page1.objects).toHaveLength(2);
    const page2 = await listKeys(me, '?page=2&page_size=2');
    expect(page2).toMatchObject({ num_results: 3, total_pages: 2, page: 2 });
    expect(page2.objects).toHaveLength(1);
    expect(page2.objects[0].title).toBe('Laptop');
    expect(Object.keys(page2.objects[0]).sort()).toEqual(
      ['create_time', 'fingerprint', 'id', 'key_type', 'last_time', 'title'].sort(),
    );
    const bad = await me.get('/api/account_pubkey?page=0');
    expect(bad.json()).toMatchObject({ code: 'InvalidParameter', field: 'page' });
    // A teammate's list does not show my keys.
    expect((await listKeys(teammate)).num_results).toBe(0);
  });

  it('refuses text that is not an OpenSSH public key with AccountPubKeyError', async () => {
    const ed = keygen('ed25519');
    const [type, blob] = ed.pub.trim().split(' ');
    const rsaBlob = keygen('rsa').pub.split(' ')[1];
    const cases = [
      'hello world',
      'ssh-ed25519 AAAA',
      `${type} ${blob?.slice(0, -8)}`,
      `ssh-rsa ${blob}`,
      `ssh-ed25519 ${rsaBlob}`,
      blob ?? '',
      `${ed.pub.trim()}\n${ed.pub.trim()}`,
      '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----',
    ];
    for (const pubkey of cases) {
      const res = await addKey(me, 'bad', pubkey);
      expect(res.statusCode, pubkey).toBe(400);
      expect(res.json().code, pubkey).toBe('AccountPubKeyError');
    }
    expect((await listKeys(me)).num_results).toBe(3);
  });

  it('refuses a key blob with trailing bytes, as OpenSSH does', async () => {
    const [type, blob] = keygen('ed25519').pub.trim().split(' ');
    const padded = Buffer.concat([
      Buffer.from(blob ?? '', 'base64'),
      Buffer.from([0, 0, 0, 0]),
    ]).toString('base64');
    const res = await addKey(me, 'padded', `${type} ${padded}`);
    expect(res.json().code).toBe('AccountPubKeyError');
  });

  it('refuses a private key pasted by mistake', async () => {
    for (const type of ['ed25519', 'rsa'] as const) {
      const key = keygen(type);
      const res = await addKey(me, 'oops', key.priv);
      expect(res.statusCode, type).toBe(400);
      expect(res.json().code).toBe('AccountPubKeyError');
      // Nothing of the private key may reach the logs.
      const body = key.priv.split('\n')[1] ?? '';
      expect(t.logs()).not.toContain(body);
    }
  });

  it('refuses the same key twice, whatever its comment, and from a teammate too', async () => {
    const key = keygen('ed25519', 'first@comment');
    expect((await addKey(me, 'once', key.pub)).statusCode).toBe(200);
    const recommented = key.pub.replace('first@comment', 'another comment entirely');
    const again = await addKey(me, 'twice', recommented);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('AccountPubKeyExist');
    const bare = await addKey(me, 'bare', key.pub.split(' ').slice(0, 2).join(' '));
    expect(bare.json().code).toBe('AccountPubKeyExist');
    const mate = await addKey(teammate, 'mine now', key.pub);
    expect(mate.statusCode).toBe(409);
    expect(mate.json().code).toBe('AccountPubKeyExist');
    expect((await listKeys(teammate)).num_results).toBe(0);
  });

  it('lets a member of another team add a key this team already has', async () => {
    const key = keygen('ed25519');
    expect((await addKey(me, 'shared', key.pub)).statusCode).toBe(200);
    await createTeam(t.ctx, {
      domain: 'otherkeys',
      fullName: 'Other Keys',
      contactName: 'Boss',
      contactAddress: 'Road 3',
      contactPhone: '',
      email: 'boss@otherkeys.local',
      admin: { account: 'boss@otherkeys.local', name: 'Boss', password: 'Keys#Pass1' },
    });
    const boss = t.client();
    expect((await boss.login('otherkeys', 'boss@otherkeys.local', 'Keys#Pass1')).statusCode).toBe(
      200,
    );
    const res = await addKey(boss, 'shared', key.pub);
    expect(res.statusCode).toBe(200);
    expect(res.json().fingerprint).toBe(key.fingerprint);
  });

  it('refuses a name over 20 characters, a blank name and a missing key, naming the field', async () => {
    const key = keygen('ed25519');
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 'x'.repeat(21), pubkey: key.pub }, 'title'],
      [{ title: '   ', pubkey: key.pub }, 'title'],
      [{ pubkey: key.pub }, 'title'],
      [{ title: 'ok', pubkey: '  ' }, 'pubkey'],
      [{ title: 'ok' }, 'pubkey'],
    ];
    for (const [body, field] of cases) {
      const res = await me.post('/api/account_pubkey', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidParameter', field });
    }
    const twenty = await addKey(me, 'y'.repeat(20), key.pub);
    expect(twenty.statusCode).toBe(200);
  });

  it('deletes one of my keys', async () => {
    const key = keygen('ed25519');
    const added = (await addKey(me, 'to delete', key.pub)).json();
    const before = (await listKeys(me, '?page_size=100')).num_results;
    const res = await me.delete(`/api/account_pubkey/${added.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const after = await listKeys(me, '?page_size=100');
    expect(after.num_results).toBe(before - 1);
    expect(after.objects.some((k: { id: number }) => k.id === added.id)).toBe(false);
    // Deleted, the same key may be added again.
    expect((await addKey(me, 'back again', key.pub)).statusCode).toBe(200);
    const twice = await me.delete(`/api/account_pubkey/${added.id}`);
    expect(twice.statusCode).toBe(404);
    expect(twice.json().code).toBe('AccountPubKeyNotFound');
  });

  it("answers AccountPubKeyNotFound for a teammate's key and leaves it in place", async () => {
    const key = keygen('ed25519');
    const theirs = (await addKey(teammate, 'mate key', key.pub)).json();
    const res = await me.delete(`/api/account_pubkey/${theirs.id}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('AccountPubKeyNotFound');
    const admin = await signedIn(t);
    expect((await admin.delete(`/api/account_pubkey/${theirs.id}`)).json().code).toBe(
      'AccountPubKeyNotFound',
    );
    const still = await listKeys(teammate);
    expect(still.objects.map((k: { id: number }) => k.id)).toContain(theirs.id);
  });
});
