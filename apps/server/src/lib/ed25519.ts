/**
 * New ed25519 key pairs in OpenSSH format (a resource's key for key login). ssh2's
 * generateKeyPairSync drops the leading zero byte of a public key that starts with one (1 key
 * in 256): the public key is 31 bytes long, no sshd accepts it, and ssh2 cannot read the
 * private key back ("Malformed OpenSSH private key"). Such a key is drawn again.
 */
import ssh2 from 'ssh2';

export function newEd25519Key(comment = ''): { private: string; public: string } {
  for (;;) {
    const pair = ssh2.utils.generateKeyPairSync('ed25519', { comment });
    if (!(ssh2.utils.parseKey(pair.private) instanceof Error)) return pair;
  }
}
