/**
 * Avatar upload (spec 1 §2.11, §5, §7 `POST /file`): png, gif or jpeg of at most 1 MB, checked
 * by content, stored under the data folder by UUID and served to the same team only.
 */
import fs from 'node:fs';
import path from 'node:path';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVATAR_MAX_BYTES } from '@portcullis/contract';
import {
  addMember,
  createTestApp,
  signedIn,
  type TestApp,
  type TestClient,
} from '../../test/harness';
import { createTeam } from '../company/teams';

const GIF_1X1 = Buffer.from(
  'R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==',
  'base64',
);
/** SOI, an APP0 JFIF segment and EOI: enough for anything that reads the first bytes. */
const JPEG_HEAD = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
  0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
]);

function upload(bytes: Buffer, extension: string, fileName = `avatar.${extension}`) {
  return {
    content: bytes.toString('base64'),
    extension,
    file_name: fileName,
    file_size: bytes.length,
  };
}

/** Every file under `dir`, relative to it. */
function listTree(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('avatar files', () => {
  let t: TestApp;
  let png: Buffer;
  let admin: TestClient;
  let member: TestClient;
  let foreign: TestClient;

  beforeAll(async () => {
    t = await createTestApp();
    png = await QRCode.toBuffer('portcullis avatar', { width: 64 });
    admin = await signedIn(t);
    await addMember(t, 'pic@demo.local', 0);
    member = await signedIn(t, 'pic@demo.local', 'Member#Pass1');
    await createTeam(t.ctx, {
      domain: 'elsewhere',
      fullName: 'Elsewhere',
      contactName: 'Boss',
      contactAddress: 'Far away 2',
      contactPhone: '',
      email: 'boss@elsewhere.local',
      admin: { account: 'boss@elsewhere.local', name: 'Boss', password: 'Else#Pass1' },
    });
    foreign = t.client();
    expect(
      (await foreign.login('elsewhere', 'boss@elsewhere.local', 'Else#Pass1')).statusCode,
    ).toBe(200);
  });
  afterAll(() => t.close());

  it('uploads a PNG, sets it as the avatar and serves the same bytes back', async () => {
    const res = await member.post('/api/file', upload(png, 'png'));
    expect(res.statusCode).toBe(200);
    const { file_uuid, path: url } = res.json();
    expect(file_uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(url).toBe(`/api/file/${file_uuid}`);

    expect((await member.patch('/api/current_account', { avatar: file_uuid })).statusCode).toBe(
      200,
    );
    const me = (await member.get('/api/current_account')).json();
    expect(me.avatar).toBe(`/api/file/${file_uuid}`);

    const img = await member.get(me.avatar);
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(img.rawPayload, png)).toBe(0);

    // The rest of the team sees the avatar too.
    const seen = await admin.get(me.avatar);
    expect(seen.statusCode).toBe(200);
    expect(Buffer.compare(seen.rawPayload, png)).toBe(0);
    const byId = await admin.get(`/api/account/${me.id}`);
    expect(byId.json().avatar).toBe(`/api/file/${file_uuid}`);
  });

  it('accepts GIF and JPEG, and a data: URL prefix on the content', async () => {
    const gif = await admin.post('/api/file', upload(GIF_1X1, 'gif'));
    expect(gif.statusCode).toBe(200);
    const gifImg = await admin.get(gif.json().path);
    expect(gifImg.headers['content-type']).toBe('image/gif');
    expect(Buffer.compare(gifImg.rawPayload, GIF_1X1)).toBe(0);

    for (const extension of ['jpeg', 'jpg']) {
      const jpeg = await admin.post('/api/file', upload(JPEG_HEAD, extension));
      expect(jpeg.statusCode, extension).toBe(200);
      expect((await admin.get(jpeg.json().path)).headers['content-type']).toBe('image/jpeg');
    }

    const dataUrl = await admin.post('/api/file', {
      ...upload(png, 'png'),
      content: `data:image/png;base64,${png.toString('base64')}`,
    });
    expect(dataUrl.statusCode).toBe(200);
    expect(Buffer.compare((await admin.get(dataUrl.json().path)).rawPayload, png)).toBe(0);
  });

  it('refuses content whose bytes are not the claimed image type', async () => {
    const cases = [
      upload(Buffer.from('just some text, not an image'), 'png'),
      upload(png, 'gif'),
      upload(GIF_1X1, 'jpeg'),
      upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'png'),
      { ...upload(png, 'png'), content: 'not base64 at all!' },
    ];
    for (const body of cases) {
      const res = await member.post('/api/file', body);
      expect(res.statusCode, body.content.slice(0, 20)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidParameter', field: 'content' });
    }
  });

  it('refuses any other extension, SVG included', async () => {
    for (const extension of ['svg', 'html', 'bmp', 'PNG', '']) {
      const res = await member.post('/api/file', upload(png, extension));
      expect(res.statusCode, extension).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidParameter', field: 'extension' });
    }
  });

  it('refuses an image over 1 MB with FileTooLarge, whatever size the client claims', async () => {
    const big = Buffer.concat([png, Buffer.alloc(AVATAR_MAX_BYTES + 1 - png.length)]);
    const res = await member.post('/api/file', { ...upload(big, 'png'), file_size: 1000 });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({
      code: 'FileTooLarge',
      error_message: 'The maximum supported file size is 1M.',
    });
    // Refused from its length alone, even when the text is not valid base64.
    const huge = await member.post('/api/file', {
      ...upload(png, 'png'),
      content: '!'.repeat(2_000_000),
    });
    expect(huge.json().code).toBe('FileTooLarge');
    // Exactly 1 MB is still allowed.
    const limit = Buffer.concat([png, Buffer.alloc(AVATAR_MAX_BYTES - png.length)]);
    expect((await member.post('/api/file', upload(limit, 'png'))).statusCode).toBe(200);
  });

  it('refuses a declared file size over 1 MB, or missing, naming the field', async () => {
    for (const file_size of [AVATAR_MAX_BYTES + 1, 0, -5, 1.5, '100']) {
      const res = await member.post('/api/file', { ...upload(png, 'png'), file_size });
      expect(res.statusCode, String(file_size)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'InvalidParameter', field: 'file_size' });
    }
    const { content, extension, file_name } = upload(png, 'png');
    const missing = await member.post('/api/file', { content, extension, file_name });
    expect(missing.json()).toMatchObject({ code: 'InvalidParameter', field: 'file_size' });
    const empty = await member.post('/api/file', { ...upload(png, 'png'), content: '' });
    expect(empty.json()).toMatchObject({ code: 'InvalidParameter', field: 'content' });
  });

  it('answers FileNotFound to a member of another team, and for an unknown file', async () => {
    const mine = (await member.post('/api/file', upload(png, 'png'))).json();
    const res = await foreign.get(mine.path);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('FileNotFound');
    const unknown = await member.get('/api/file/00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('FileNotFound');
    const malformed = await member.get('/api/file/..%2F..%2Fetc%2Fpasswd');
    expect(malformed.json()).toMatchObject({ code: 'InvalidParameter', field: 'uuid' });
  });

  it('serves avatars only: a stored file of another kind answers FileNotFound', async () => {
    const uuid = '11111111-1111-4111-8111-111111111111';
    fs.mkdirSync(path.join(t.dataDir, 'files'), { recursive: true });
    fs.writeFileSync(path.join(t.dataDir, 'files', uuid), png);
    const company = (await member.get('/api/current_account')).json().company;
    await t.ctx.db
      .insertInto('file')
      .values({
        uuid,
        company_id: company.id,
        account_id: 1,
        kind: 'document',
        file_name: 'secret.png',
        extension: 'png',
        file_size: png.length,
        created_at: 0,
      })
      .execute();
    const res = await member.get(`/api/file/${uuid}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('FileNotFound');
    await t.ctx.db.deleteFrom('file').where('uuid', '=', uuid).execute();
    fs.rmSync(path.join(t.dataDir, 'files', uuid));
  });

  it("refuses someone else's upload as one's avatar, changing nothing", async () => {
    const before = (await admin.get('/api/current_account')).json();
    const theirs = (await member.post('/api/file', upload(png, 'png'))).json();
    for (const avatar of [theirs.file_uuid, '00000000-0000-4000-8000-000000000000', 'nonsense']) {
      const res = await admin.patch('/api/current_account', { avatar, name: 'Changed' });
      expect(res.statusCode, avatar).toBe(404);
      expect(res.json().code).toBe('FileNotFound');
    }
    const foreignRes = await foreign.patch('/api/current_account', { avatar: theirs.file_uuid });
    expect(foreignRes.json().code).toBe('FileNotFound');
    const after = (await admin.get('/api/current_account')).json();
    expect(after).toMatchObject({ name: before.name, avatar: before.avatar });
  });

  it('stores the file under its UUID and keeps the given name as data only', async () => {
    const res = await member.post('/api/file', upload(png, 'png', '../../etc/passwd'));
    expect(res.statusCode).toBe(200);
    const { file_uuid } = res.json();
    const row = await t.ctx.db
      .selectFrom('file')
      .selectAll()
      .where('uuid', '=', file_uuid)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      file_name: '../../etc/passwd',
      extension: 'png',
      file_size: png.length,
      kind: 'avatar',
    });

    const filesDir = path.join(t.dataDir, 'files');
    const stored = fs.readFileSync(path.join(filesDir, file_uuid));
    expect(Buffer.compare(stored, png)).toBe(0);
    expect((fs.statSync(path.join(filesDir, file_uuid)).mode & 0o777).toString(8)).toBe('600');
    // Nothing but UUID-named files in the files folder, and no stray `etc` anywhere.
    for (const name of listTree(filesDir)) expect(name).toMatch(/^[0-9a-f-]{36}$/);
    expect(listTree(t.dataDir).some((f) => f.includes('passwd'))).toBe(false);
    expect(fs.existsSync(path.join(t.dataDir, '..', 'etc'))).toBe(false);
  });

  it('asks for a session', async () => {
    const anon = t.client();
    const res = await anon.post('/api/file', upload(png, 'png'));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('NeedLogin');
  });
});
