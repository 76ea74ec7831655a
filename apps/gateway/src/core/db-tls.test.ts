// The TLS options every target login derives from a resource's setting (the logins themselves
// are tested in the proxies' and the connectivity test's files).
import { describe, expect, it } from 'vitest';
import { isCertificateError, targetTlsOptions } from './db-tls';

describe('the TLS options for a target database', () => {
  it('checks nothing without a setting or under require, whatever CA is named', () => {
    expect(targetTlsOptions('10.0.0.5', undefined)).toEqual({
      host: '10.0.0.5',
      rejectUnauthorized: false,
    });
    expect(targetTlsOptions('db.example', { mode: 'require', ca: 'PEM' })).toEqual({
      host: 'db.example',
      servername: 'db.example',
      rejectUnauthorized: false,
    });
  });

  it('under verify checks the chain (to the CA named) and the host, SNI for a name only', () => {
    expect(targetTlsOptions('db.example', { mode: 'verify', ca: 'PEM' })).toEqual({
      host: 'db.example',
      servername: 'db.example',
      rejectUnauthorized: true,
      ca: 'PEM',
    });
    // RFC 6066: no SNI for an address; Node checks the certificate against `host`.
    expect(targetTlsOptions('::1', { mode: 'verify' })).toEqual({
      host: '::1',
      rejectUnauthorized: true,
    });
  });

  it("tells Node's certificate refusals from other TLS failures", () => {
    const error = (code: string) => Object.assign(new Error(code), { code });
    expect(isCertificateError(error('UNABLE_TO_VERIFY_LEAF_SIGNATURE'))).toBe(true);
    expect(isCertificateError(error('ERR_TLS_CERT_ALTNAME_INVALID'))).toBe(true);
    expect(isCertificateError(error('ECONNRESET'))).toBe(false);
    expect(isCertificateError(error('ERR_SSL_WRONG_VERSION_NUMBER'))).toBe(false);
    expect(isCertificateError({ code: 'CERT_HAS_EXPIRED' })).toBe(false);
  });
});
