/**
 * A database resource's TLS mode for the gateway's own connection to it (contract
 * DB_TLS_MODES): what goes into its session credentials and connectivity tests, and the check
 * that the CA certificates an administrator pasted are certificates.
 */
import crypto from 'node:crypto';
import type { DbTls, DbTlsMode } from '@portcullis/contract';
import { AppError } from '../../lib/app-error';
import { everyGatewayHas } from '../clusters/service';
import type { AppContext } from '../../context';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** What a credential carries for the mode: nothing for 'prefer' (what every gateway does). */
export function databaseTls(row: { tls_mode: string; tls_ca: string }): DbTls | undefined {
  if (row.tls_mode === 'require') return { mode: 'require' };
  if (row.tls_mode === 'verify') return { mode: 'verify', ...(row.tls_ca && { ca: row.tls_ca }) };
  return undefined;
}

/**
 * The CA text as stored: '' stays '', anything else must be one or more PEM certificates and
 * nothing but (a private key pasted by mistake is refused, not kept).
 */
export function checkedTlsCa(text: string): string {
  if (text === '') return '';
  const blocks = text.match(PEM_CERTIFICATE) ?? [];
  const rest = text.replace(PEM_CERTIFICATE, '').trim();
  const parses = (block: string): boolean => {
    try {
      new crypto.X509Certificate(block);
      return true;
    } catch {
      return false;
    }
  };
  if (blocks.length === 0 || rest !== '' || !blocks.every(parses)) {
    throw new AppError('InvalidParameter', { field: 'tls_ca' }, { field: 'tls_ca' });
  }
  return blocks.join('\n');
}

/** The columns a create or update writes, for a database (servers keep the defaults). */
export function tlsColumns(
  mode: DbTlsMode | undefined,
  ca: string | undefined,
): { tls_mode?: DbTlsMode; tls_ca?: string } {
  return {
    ...(mode !== undefined && { tls_mode: mode }),
    ...(ca !== undefined && { tls_ca: checkedTlsCa(ca) }),
  };
}

/**
 * A database whose TLS is required or verified gets its credential only through gateways that
 * honour it: an older one would drop `tls` unread and log in without it.
 */
export async function assertTlsHonoured(
  ctx: AppContext,
  resource: { network_id: number; tls_mode: string },
): Promise<void> {
  if (resource.tls_mode === 'prefer') return;
  if (!(await everyGatewayHas(ctx, resource.network_id, 'db_tls'))) {
    throw new AppError('GatewayUpdateRequired');
  }
}
