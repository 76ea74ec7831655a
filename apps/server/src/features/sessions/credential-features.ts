/**
 * What a credential or a task's target carries that a gateway must understand to use it
 * safely: a gateway without the feature would drop the field unread (log in to whatever
 * answers at the address, or without TLS). One table for the session credential, the
 * connectivity test and the key tasks.
 */
import type { GatewayFeature } from '@portcullis/contract';
import { AppError } from '../../lib/app-error';
import type { AppContext } from '../../context';
import { everyGatewayHas } from '../clusters/service';

interface Needs {
  host_key?: unknown;
  tls?: unknown;
}

const NEEDED: { field: keyof Needs; feature: GatewayFeature; explanation: string }[] = [
  {
    field: 'host_key',
    feature: 'host_key_pin',
    explanation: 'it cannot check the server’s pinned host key',
  },
  {
    field: 'tls',
    feature: 'db_tls',
    explanation: 'it cannot require or verify the database’s TLS',
  },
];

/** The first field `target` carries whose feature `has` lacks, with why it matters; or none. */
export function unhonouredField(
  target: Needs,
  has: (feature: GatewayFeature) => boolean,
): { feature: GatewayFeature; explanation: string } | undefined {
  return NEEDED.find(({ field, feature }) => target[field] !== undefined && !has(feature));
}

/**
 * Refuses (GatewayUpdateRequired) a task for `target` unless every gateway of the cluster
 * honours what it carries.
 */
export async function assertGatewaysHonour(
  ctx: AppContext,
  networkId: number,
  target: Needs,
): Promise<void> {
  for (const { field, feature } of NEEDED) {
    if (target[field] === undefined) continue;
    if (!(await everyGatewayHas(ctx, networkId, feature))) {
      throw new AppError('GatewayUpdateRequired');
    }
  }
}
