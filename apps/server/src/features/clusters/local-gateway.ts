/**
 * `npm start` runs one gateway beside the server, as the agent of a default cluster, so a
 * newcomer has a working cluster at once. On the first start this makes the cluster and writes
 * the gateway's config (server address and cluster key, mode 0600) into the data folder;
 * scripts/start.mjs then starts the gateway process with it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../../context';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { nowSeconds } from '../../lib/time';

export const LOCAL_GATEWAY_FILE = 'local-gateway.json';
const DEFAULT_CLUSTER_NAME = 'Local';

export async function ensureLocalGateway(ctx: AppContext, port: number): Promise<string | null> {
  const file = path.join(ctx.config.dataDir, LOCAL_GATEWAY_FILE);
  if (fs.existsSync(file)) return file;
  const company = await ctx.db
    .selectFrom('company')
    .select('id')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!company) return null;
  const key = `pck_${randomToken(32)}`;
  await ctx.db
    .insertInto('network')
    .values({
      company_id: company.id,
      name: DEFAULT_CLUSTER_NAME,
      name_key: DEFAULT_CLUSTER_NAME.toLowerCase(),
      key_hash: sha256Hex(key),
      key_sealed: ctx.sealer.seal(key),
      max_tunnel_expire_time: 0,
      is_open_map: 0,
      port_map_info: '[]',
      safe_mode: 0,
      safe_mode_approver: 0,
      safe_mode_notice: 0,
      created_at: nowSeconds(),
    })
    .execute();
  // data_dir: the gateway's own files (its SSH host key) in the data folder's gateway/.
  const config = {
    server: `http://127.0.0.1:${port}`,
    key,
    host: 'localhost',
    data_dir: path.join(ctx.config.dataDir, 'gateway'),
  };
  fs.writeFileSync(file, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  return file;
}
