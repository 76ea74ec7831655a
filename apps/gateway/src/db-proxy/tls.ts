/**
 * The certificate the database proxies offer clients that ask for TLS (psql `sslmode=require`,
 * `mysql --ssl`): made once, self-signed, with the `openssl` tool, and kept in the gateway's
 * data folder (`db-tls/`), the key readable by the gateway's user only. Clients that verify
 * certificates (`sslmode=verify-full`) need a certificate of the site's own CA put there in
 * its place (same file names). Without `openssl` the proxies run without TLS, and say so.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../core/logger';

export interface ProxyTls {
  key: string;
  cert: string;
}

const run = promisify(execFile);

/**
 * The proxies' certificate and key, made at the first start; undefined when there is none and
 * none could be made. `openssl` runs as a child process for up to 30 s without blocking the
 * event loop, so the gateway's control channel and other proxies go on meanwhile.
 */
export async function loadProxyTls(dataDir: string, logger: Logger): Promise<ProxyTls | undefined> {
  const dir = path.join(dataDir, 'db-tls');
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  try {
    if (!fs.existsSync(keyFile) || !fs.existsSync(certFile)) {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const made = run(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '3650',
          '-subj',
          `/CN=${os.hostname()}`,
          '-keyout',
          keyFile,
          '-out',
          certFile,
        ],
        { timeout: 30_000 },
      );
      made.child.stdin?.end(); // nothing to read: with -nodes and -subj it asks nothing
      await made;
      fs.chmodSync(keyFile, 0o600);
      logger.info({ cert: certFile }, 'made a self-signed certificate for the database proxies');
    }
    return { key: fs.readFileSync(keyFile, 'utf8'), cert: fs.readFileSync(certFile, 'utf8') };
  } catch (err) {
    logger.warn({ err }, 'no certificate for the database proxies: they offer no TLS');
    return undefined;
  }
}
