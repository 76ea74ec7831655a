/**
 * Watching an online terminal session (spec 1 §2.5, Monitor): the reader asks for the stored
 * recording from an offset, about once a second, and gets the whole lines that arrived since.
 * The gateway streams a live recording at most a second behind (gateway recording/uploader.ts),
 * so this is what the session showed a second or two ago; nothing new reaches the gateway's
 * sessions, which cannot tell they are watched.
 */
import {
  INPUT_VIEWER_ROLES,
  isRole,
  MONITOR_CHUNK_BYTES,
  TERMINAL_WAYS,
  Role,
  type MonitorReply,
} from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import type { AuthContext } from '../../plugins/app/auth';
import { castForReader, wholeLines } from './cast-filter';
import { recordingStore } from './tiered-store';

export async function monitorSlice(
  ctx: AppContext,
  auth: AuthContext,
  connectionId: number,
  offset: number,
): Promise<MonitorReply> {
  const row = await ctx.db
    .selectFrom('tunnel_connection')
    .select(['company_id', 'recording', 'way', 'ended_at'])
    .where('id', '=', connectionId)
    .where('company_id', '=', auth.company.id)
    .where('op', '=', '')
    .executeTakeFirst();
  if (!row) throw new AppError('ConnectionIDNotFound');
  if (!TERMINAL_WAYS.includes(row.way))
    throw new AppError('InvalidParameter', { field: 'id' }, { field: 'id' });
  const live = row.ended_at === null;
  // Until the gateway's first chunk (a second or so into the session) there is nothing yet.
  const key = { companyId: row.company_id, connectionId };
  const store = recordingStore(ctx);
  let range = row.recording === 0 ? null : await store.readRange(key, offset, MONITOR_CHUNK_BYTES);
  if (!range || offset >= range.size) return { live, offset, cast: '', more: false };
  let lines = wholeLines(range.data);
  // A line longer than a chunk goes whole, or the reader would ask for the same bytes forever.
  if (lines.length === 0 && offset + range.data.length < range.size) {
    range = await store.readRange(key, offset, range.size - offset);
    lines = wholeLines(range?.data ?? Buffer.alloc(0));
  }
  const role = isRole(auth.account.is_admin) ? auth.account.is_admin : Role.Ordinary;
  const cast = await castForReader(lines, INPUT_VIEWER_ROLES.includes(role));
  return {
    live,
    offset: offset + lines.length,
    cast: cast.toString('utf8'),
    // Bytes past what was read: another answer's worth (or a line still arriving).
    more: range !== null && offset + range.data.length < range.size,
  };
}
