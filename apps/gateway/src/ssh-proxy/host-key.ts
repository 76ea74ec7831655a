/**
 * The SSH proxy's host key: an ed25519 key made the first time the proxy starts and kept in the
 * gateway's data folder (mode 600), so clients see the same host key across restarts.
 */
import fs from 'node:fs';
import path from 'node:path';
import ssh2 from 'ssh2';

export const HOST_KEY_FILE = 'ssh_host_ed25519_key';

/** Reads the host key from `dataDir`, making it (and the folder) when missing. */
export function loadHostKey(dataDir: string): string {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, HOST_KEY_FILE);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const pair = ssh2.utils.generateKeyPairSync('ed25519', { comment: 'portcullis-gateway' });
  try {
    // 'wx': two gateways sharing a folder must not overwrite each other's key.
    fs.writeFileSync(file, pair.private, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  fs.chmodSync(file, 0o600);
  return fs.readFileSync(file, 'utf8');
}
