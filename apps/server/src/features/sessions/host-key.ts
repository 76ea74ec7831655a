/**
 * Servers' SSH host keys, pinned on first use: the first session through a gateway pins the
 * key the target showed, and every later one carries the pin in its credential, so that the
 * gateway refuses a target showing another key before it sends any password or key
 * (HostKeyChanged). The pin goes with a change of address or port, or when an administrator
 * forgets it (resources/service.ts).
 */
import type { ResolvedCode } from '@portcullis/contract';
import type { AppContext } from '../../context';

/** The fingerprint pinned for a server, if any. */
export async function pinnedHostKey(
  ctx: AppContext,
  resourceId: number,
): Promise<string | undefined> {
  const row = await ctx.db
    .selectFrom('resource')
    .select('host_key')
    .where('id', '=', resourceId)
    .executeTakeFirst();
  return row?.host_key ?? undefined;
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
