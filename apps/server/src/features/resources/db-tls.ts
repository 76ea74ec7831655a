/**
 * A database resource's TLS mode for the gateway's own connection to it (contract
 * DB_TLS_MODES): what goes into its session credentials and connectivity tests, and the check
 * that the CA certificates an administrator pasted are certificates.
 */
import crypto from 'node:crypto';
import { TLS_CA_MAX, type DbTls, type DbTlsMode } from '@portcullis/contract';
import { AppError } from '../../lib/app-error';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** The database kinds whose proxies honour the setting (SQL Server's is a later issue). */
const WITH_TLS_SETTING = new Set(['mysql', 'postgresql']);

/** What a credential carries for the mode: nothing for 'prefer' (what every gateway does). */
export function databaseTls(row: {
  os: string;
  tls_mode: string;
  tls_ca: string;
}): DbTls | undefined {
  if (!WITH_TLS_SETTING.has(row.os)) return undefined;
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
  const kept = blocks.join('\n');
  // The blocks rejoined one per line may outgrow text that had none between them.
  if (blocks.length === 0 || rest !== '' || !blocks.every(parses) || kept.length > TLS_CA_MAX) {
    throw new AppError('InvalidParameter', { field: 'tls_ca' }, { field: 'tls_ca' });
  }
  return kept;
}

/**
 * The columns a create or update writes, for a database (servers keep the defaults). SQL
 * Server takes only 'prefer': nothing would enforce more.
 */
export function tlsColumns(
  os: string,
  mode: DbTlsMode | undefined,
  ca: string | undefined,
): { tls_mode?: DbTlsMode; tls_ca?: string } {
  if (mode !== undefined && mode !== 'prefer' && !WITH_TLS_SETTING.has(os)) {
    throw new AppError('InvalidParameter', { field: 'tls_mode' }, { field: 'tls_mode' });
  }
  return {
    ...(mode !== undefined && { tls_mode: mode }),
    ...(ca !== undefined && { tls_ca: checkedTlsCa(ca) }),
  };
}
