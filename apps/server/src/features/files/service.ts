/**
 * Avatar images: decoded from base64, checked by their first bytes (not by the name a client
 * gives), stored under `<dataDir>/files/<uuid>` and served only to members of the same team.
 * The stored name is a fresh UUID; the uploaded file name is kept as data only.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AVATAR_MAX_BYTES } from '@portcullis/contract';
import type { AppContext } from '../../context';
import type { FileTable } from '../../db/schema';
import { AppError, invalidParameter } from '../../lib/app-error';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';

const SIGNATURES: { type: string; extensions: string[]; magic: number[] }[] = [
  {
    type: 'image/png',
    extensions: ['png'],
    magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  },
  { type: 'image/gif', extensions: ['gif'], magic: [0x47, 0x49, 0x46, 0x38] },
  { type: 'image/jpeg', extensions: ['jpeg', 'jpg'], magic: [0xff, 0xd8, 0xff] },
];

function sniff(bytes: Buffer): (typeof SIGNATURES)[number] | undefined {
  return SIGNATURES.find((s) => s.magic.every((b, i) => bytes[i] === b));
}

function filePath(ctx: AppContext, uuid: string): string {
  return path.join(ctx.config.dataDir, 'files', uuid);
}

export async function saveAvatar(
  ctx: AppContext,
  auth: AuthContext,
  upload: { content: string; extension: string; file_name: string },
): Promise<{ file_uuid: string; path: string }> {
  const base64 = upload.content.replace(/^data:[^;]+;base64,/, '');
  // The decoded size is known from the text's length: refuse a large body before scanning it.
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  if (Math.floor((base64.length * 3) / 4) - padding > AVATAR_MAX_BYTES) {
    throw new AppError('FileTooLarge', { size: '1M' });
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) throw invalidParameter('content');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > AVATAR_MAX_BYTES) throw new AppError('FileTooLarge', { size: '1M' });
  const kind = sniff(bytes);
  if (!kind || !kind.extensions.includes(upload.extension)) throw invalidParameter('content');
  const uuid = crypto.randomUUID();
  await fs.mkdir(path.join(ctx.config.dataDir, 'files'), { recursive: true });
  await fs.writeFile(filePath(ctx, uuid), bytes, { mode: 0o600 });
  const row: FileTable = {
    uuid,
    company_id: auth.company.id,
    account_id: auth.account.id,
    kind: 'avatar',
    file_name: upload.file_name,
    extension: upload.extension,
    file_size: bytes.length,
    created_at: nowSeconds(),
  };
  await ctx.db.insertInto('file').values(row).execute();
  return { file_uuid: uuid, path: `/api/file/${uuid}` };
}

/**
 * An avatar of the caller's team; another team's file, or a file of another kind (documents
 * have their own permissions), answers as not found.
 */
export async function readAvatar(
  ctx: AppContext,
  auth: AuthContext,
  uuid: string,
): Promise<{ bytes: Buffer; type: string }> {
  const row = await ctx.db
    .selectFrom('file')
    .selectAll()
    .where('uuid', '=', uuid)
    .where('company_id', '=', auth.company.id)
    .where('kind', '=', 'avatar')
    .executeTakeFirst();
  if (!row) throw new AppError('FileNotFound');
  const bytes = await fs.readFile(filePath(ctx, row.uuid)).catch(() => {
    throw new AppError('FileNotFound');
  });
  return { bytes, type: sniff(bytes)?.type ?? 'application/octet-stream' };
}

export async function assertOwnAvatar(
  ctx: AppContext,
  auth: AuthContext,
  uuid: string,
): Promise<void> {
  const row = await ctx.db
    .selectFrom('file')
    .select('uuid')
    .where('uuid', '=', uuid)
    .where('account_id', '=', auth.account.id)
    .where('kind', '=', 'avatar')
    .executeTakeFirst();
  if (!row) throw new AppError('FileNotFound');
}
