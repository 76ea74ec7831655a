/**
 * The SSH proxy's host key: an ed25519 key made the first time the proxy starts and kept in the
 * gateway's data folder (mode 600), so clients see the same host key across restarts.
 */
import fs from 'node:fs';
import path from 'node:path';
import ssh2 from './ssh2';

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
  const pair = newEd25519Key('portcullis-gateway');
  try {
    // 'wx': two gateways sharing a folder must not overwrite each other's key.
    fs.writeFileSync(file, pair.private, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  fs.chmodSync(file, 0o600);
  return fs.readFileSync(file, 'utf8');
}

/**
 * A new ed25519 key pair in OpenSSH format. ssh2's generateKeyPairSync drops the leading zero
 * byte of a public key that starts with one (1 key in 256): the key is 31 bytes long, and
 * ssh2 itself cannot read it back ("Malformed OpenSSH private key"), so a gateway would not
 * start. Such a key is drawn again.
 */
export function newEd25519Key(comment = ''): { private: string; public: string } {
  for (;;) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519', { comment });
    if (!(ssh2.utils.parseKey(pair.private) instanceof Error)) return pair;
  }
}
