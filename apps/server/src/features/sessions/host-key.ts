/**
 * Servers' SSH host keys, pinned on first use: the first session through a gateway pins the
 * key the target showed, and every later one carries the pin in its credential, so that the
 * gateway refuses a target showing another key before it sends any password or key
 * (HostKeyChanged). The pin goes with a change of address or port, or when an administrator
 * forgets it (resources/service.ts).
 */
import type { ResolvedCode } from '@portcullis/contract';
import type { AppContext } from '../../context';
import { assertGatewaysHonour } from './credential-features';

/**
 * The fingerprint pinned for a server (undefined: none yet), read with its address in one
 * look: `moved` when the address or port is no longer the one the code was resolved with
 * (the edit that moved it cleared the pin, and the old address must not be reached unchecked).
 */
export async function pinnedHostKey(
  ctx: AppContext,
  resource: ResolvedCode['resource'],
): Promise<{ moved: boolean; hostKey: string | undefined }> {
  const row = await ctx.db
    .selectFrom('resource')
    .select(['host_key', 'ip_address', 'port'])
    .where('id', '=', resource.id)
    .executeTakeFirst();
  const moved = !row || row.ip_address !== resource.ip_address || row.port !== resource.port;
  return { moved, hostKey: row?.host_key ?? undefined };
}

/**
 * Pins what a session's target showed, when nothing is pinned yet and the resource is still at
 * the address the session went to (an address changed meanwhile says nothing of this key).
 * Returns whether it pinned.
 */
export async function pinHostKey(
  ctx: AppContext,
  resource: ResolvedCode['resource'],
  fingerprint: string,
): Promise<boolean> {
  const result = await ctx.db
    .updateTable('resource')
    .set({ host_key: fingerprint })
    .where('id', '=', resource.id)
    .where('host_key', 'is', null)
    .where('ip_address', '=', resource.ip_address)
    .where('port', '=', resource.port)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * A server with a pinned host key gets a credential only through gateways that check it: an
 * older one would drop the pin unread and log in to whatever answers at the address.
 */
export async function assertPinChecked(
  ctx: AppContext,
  resource: { network_id: number; host_key: string | null },
): Promise<void> {
  if (resource.host_key === null) return;
  await assertGatewaysHonour(ctx, resource.network_id, { host_key: resource.host_key });
}
