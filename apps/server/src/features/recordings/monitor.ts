/**
 * Watching an online terminal session (spec 1 §2.5, Monitor): the reader asks for the stored
 * recording from an offset, about once a second, and gets the whole lines that arrived since.
 * The gateway streams a live recording at most a second behind (gateway recording/uploader.ts),
 * so this is what the session showed a second or two ago; nothing new reaches the gateway's
 * sessions, which cannot tell they are watched.
 *
 * What it never gives: typed input (the screen shows the terminal's echo; a password typed at
 * a prompt stays unseen), whatever the reader's role; a line cut by an offset that is not at a
 * line's start (a chosen offset must not turn the middle of an input line into output); and a
 * session that ended more than {@link ENDED_GRACE_SECONDS} ago (a recording is read through the
 * action log's download, by the roles that may).
 */
import { MONITOR_CHUNK_BYTES, TERMINAL_WAYS, type MonitorReply } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { nowSeconds } from '../../lib/time';
import type { AuthContext } from '../../plugins/app/auth';
import { castForReader, wholeLines } from './cast-filter';
import type { RecordingKey, RecordingRange } from './store';
import { recordingStore } from './tiered-store';

/** An ended session can still be read this long: the watcher's last piece and its note. */
export const ENDED_GRACE_SECONDS = 30;

/** A first look at a long session starts this far from its end: a watcher wants it live. */
export const MONITOR_TAIL_BYTES = 256 * 1024;

const NEWLINE = 0x0a;

/** What an answer reads: the header to put first, and the recording's bytes from `from`. */
interface Start {
  header: Buffer;
  from: number;
  data: Buffer;
  size: number;
}

const NONE = Buffer.alloc(0);

type Read = (offset: number, length: number) => Promise<RecordingRange | null>;

/**
 * From a later offset: `offset` when it is a line's start (just after a newline), otherwise the
 * next line's, or null while that line has no end yet (nothing to give: never the middle of a
 * line). One read serves the alignment and the answer, as each second's poll asks.
 */
async function fromLineStart(read: Read, offset: number): Promise<Start | null> {
  let window = await read(offset - 1, MONITOR_CHUNK_BYTES + 1);
  if (!window) return null;
  let at = window.data[0] === NEWLINE ? 1 : window.data.indexOf(NEWLINE) + 1;
  // A line longer than a chunk: its end is looked for in the rest of the recording.
  if (at === 0 && offset - 1 + window.data.length < window.size) {
    window = await read(offset - 1, window.size - offset + 1);
    at = window ? window.data.indexOf(NEWLINE) + 1 : 0;
  }
  if (!window || at === 0) return null;
  return { header: NONE, from: offset - 1 + at, data: window.data.subarray(at), size: window.size };
}

/**
 * A first look: the whole of a short recording; a longer one's header, then the first whole
 * line of its last MONITOR_TAIL_BYTES.
 */
async function firstLook(read: Read): Promise<Start | null> {
  const first = await read(0, MONITOR_CHUNK_BYTES);
  if (!first) return null;
  const whole = { header: NONE, from: 0, data: first.data, size: first.size };
  if (first.size <= MONITOR_TAIL_BYTES) return whole;
  const tail = await read(first.size - MONITOR_TAIL_BYTES, MONITOR_TAIL_BYTES);
  const next = tail ? tail.data.indexOf(NEWLINE) : -1;
  if (!tail || next < 0) return whole;
  return {
    header: first.data.subarray(0, first.data.indexOf(NEWLINE) + 1),
    from: first.size - MONITOR_TAIL_BYTES + next + 1,
    data: tail.data.subarray(next + 1),
    size: first.size,
  };
}

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
  if (!row || (row.ended_at !== null && row.ended_at < nowSeconds() - ENDED_GRACE_SECONDS))
    throw new AppError('ConnectionIDNotFound');
  if (!TERMINAL_WAYS.includes(row.way))
    throw new AppError('InvalidParameter', { field: 'id' }, { field: 'id' });
  const live = row.ended_at === null;
  // Until the gateway's first chunk (a second or so into the session) there is nothing yet.
  if (row.recording === 0) return { live, offset, cast: '', more: false };
  const key: RecordingKey = { companyId: row.company_id, connectionId };
  const store = recordingStore(ctx);
  const read: Read = (at, length) => store.readRange(key, at, length);
  const start = offset === 0 ? await firstLook(read) : await fromLineStart(read, offset);
  if (!start) return { live, offset, cast: '', more: false };
  const { header, from, size } = start;
  let { data } = start;
  let lines = wholeLines(data);
  // A line longer than a chunk goes whole, or the reader would ask for the same bytes forever.
  if (lines.length === 0 && from + data.length < size) {
    data = (await read(from, size - from))?.data ?? NONE;
    lines = wholeLines(data);
  }
  const cast = await castForReader(Buffer.concat([header, lines]), false);
  return {
    live,
    offset: from + lines.length,
    cast: cast.toString('utf8'),
    // Bytes past what was read: another answer's worth (or a line still arriving).
    more: from + data.length < size,
  };
}
