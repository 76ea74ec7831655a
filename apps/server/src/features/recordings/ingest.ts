/**
 * Recording chunks from a gateway's control channel (contract control.ts `recording_chunk`, or
 * its binary frame, recording-frame.ts):
 * a gateway may add to the recordings of sessions on resources of its own cluster only, live
 * or ended (a restarted gateway uploads what its spool kept). The store marks the connection
 * row as having a recording with its first stored bytes.
 */
import {
  RECORDING_CHUNK_BYTES,
  RECORDING_MAX_BYTES,
  RECORDING_SLACK_BYTES,
  type RecordingChunk,
} from '@portcullis/contract';
import type { AppContext } from '../../context';
import { prepared } from '../../db/prepared';
import { recordingStore } from './tiered-store';

export interface ChunkOutcome {
  size: number;
  refused: boolean;
}

// Built once (db/prepared.ts): read for every chunk.
const chunkOwner = prepared(['connection', 'network'], (db, v) =>
  db
    .selectFrom('tunnel_connection as c')
    .innerJoin('resource as r', 'r.id', 'c.resource_id')
    .select(['c.company_id', 'c.recording'])
    .where('c.id', '=', v.connection)
    .where('r.network_id', '=', v.network),
);

export async function ingestChunk(
  ctx: AppContext,
  networkId: number,
  chunk: RecordingChunk,
): Promise<ChunkOutcome> {
  const row = await chunkOwner.first(ctx.db, {
    connection: chunk.connection_id,
    network: networkId,
  });
  if (!row) return { size: 0, refused: true };
  const { data } = chunk;
  const tooLarge = chunk.offset + data.length > RECORDING_MAX_BYTES + RECORDING_SLACK_BYTES;
  if (data.length > RECORDING_CHUNK_BYTES || tooLarge) return { size: 0, refused: true };
  const key = { companyId: row.company_id, connectionId: chunk.connection_id };
  const size = await recordingStore(ctx).write(key, chunk.offset, data, {
    recorded: row.recording !== 0,
  });
  return { size, refused: false };
}
