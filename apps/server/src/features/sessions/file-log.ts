/**
 * The file log: a file a session opened through sftp or scp becomes an action log entry of its
 * own (a tunnel_connection row, way sftp or scp, op and filename, parent_id the session), so
 * `GET /search_tunnel` lists it beside the session, with the same filters. The row is closed
 * when written: it is a record, never an online connection. The file name is data: stored and
 * shown, never opened as a path.
 */
import type { FileOp, FileWay } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { nowSeconds } from '../../lib/time';

export interface FileReport {
  connectionId: number;
  way: FileWay;
  op: FileOp;
  filename: string;
}

/** Writes the entry; false when the session is unknown. */
export async function recordFileTransfer(ctx: AppContext, report: FileReport): Promise<boolean> {
  const session = await ctx.db
    .selectFrom('tunnel_connection')
    .select(['company_id', 'account_id', 'tunnel_id', 'resource_id', 'client_ip', 'safe_mode'])
    .where('id', '=', report.connectionId)
    .executeTakeFirst();
  if (!session) return false;
  const now = nowSeconds();
  await ctx.db
    .insertInto('tunnel_connection')
    .values({
      ...session,
      created_at: now,
      ended_at: now,
      way: report.way,
      op: report.op,
      filename: report.filename,
      parent_id: report.connectionId,
    })
    .execute();
  return true;
}
