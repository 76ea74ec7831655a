/**
 * TLS on the gateway's own connection to a target database (a resource's `tls`), shared by the
 * proxies' target logins and the connectivity test. Absent: TLS when the database offers it,
 * its certificate unchecked (libpq's sslmode=prefer). `require`: a database that offers no TLS
 * is refused before any credential is sent. `verify`: as require, and Node itself refuses a
 * certificate that does not chain to the resource's CA (or Node's trusted ones) or does not
 * name the host dialled. The client's own connection to the gateway is another matter
 * (db-proxy/tls.ts).
 */
import net from 'node:net';
import type tls from 'node:tls';
import type { DbTls } from '../control/protocol';

/** Why a login under `require` or `verify` stops when the database offers no TLS. */
export const TLS_NOT_OFFERED = 'the database does not offer TLS, which the resource requires';

/** Why a login under `verify` stops when Node refused the database's certificate. */
export function certificateRefused(err: Error): string {
  return `the database's TLS certificate was not accepted (${err.message})`;
}

/**
 * tls.connect options for the target at `host`, besides the socket. `host` is what Node
 * checks the certificate's names against (an IP address included); SNI (`servername`) only
 * for a host name, since RFC 6066 forbids an address there.
 */
export function targetTlsOptions(host: string, setting: DbTls | undefined): tls.ConnectionOptions {
  const verify = setting?.mode === 'verify';
  return {
    host,
    ...(net.isIP(host) === 0 && { servername: host }),
    // Unverified unless asked: without a CA named, a database's certificate is mostly its own.
    rejectUnauthorized: verify,
    ...(verify && setting.ca !== undefined && { ca: setting.ca }),
  };
}

/**
 * The codes Node gives a refused certificate: OpenSSL's X509 verification results (Node's
 * tls docs, "X509 certificate error codes") and its own name check's. Any other TLS error is
 * the handshake failing, not the certificate being refused.
 */
const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_CRL',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECRYPT_CRL_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CRL_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'CRL_NOT_YET_VALID',
  'CRL_HAS_EXPIRED',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'ERROR_IN_CRL_LAST_UPDATE_FIELD',
  'ERROR_IN_CRL_NEXT_UPDATE_FIELD',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Whether `err` is Node refusing the database's certificate. */
export function isCertificateError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === 'string' && CERTIFICATE_CODES.has(code);
}

/**
 * What a kept connection's TLS was opened under, for the key it is kept by: a connection
 * opened under a weaker setting (or another CA) is never handed to a login that asks more.
 */
export function tlsKeyParts(setting: DbTls | undefined): string[] {
  // `ca` is at least one character, so '' stands for none.
  return [setting?.mode ?? 'prefer', setting?.ca ?? ''];
}
