/**
 * A temporary authorization's password, asked of the client the way a MySQL 8 server asks for
 * a caching_sha2_password account's (dev.mysql.com "Caching_sha2_password information", the
 * exchanges page of the server's source documentation), so stock clients need no option:
 *
 *   gateway  AuthSwitchRequest: 0xfe / "caching_sha2_password\0" / nonce[20] / 0x00
 *            (not sent when the HandshakeResponse already named caching_sha2_password and
 *            carried its reply to the greeting's nonce)
 *   client   scramble[32]: XOR(SHA256(pw), SHA256(SHA256(SHA256(pw)), nonce))
 *   gateway  AuthMoreData 0x01 / 0x04 "perform full authentication": the gateway keeps no
 *            cache of password digests to check a scramble against (the server checks the
 *            password), so it always asks for the password itself
 *   client   over TLS: string<NUL> password
 *            without TLS: 0x02 (public key request), answered with AuthMoreData 0x01 / the PEM
 *            of the gateway's RSA public key; then RSA-OAEP (SHA-1) of `password\0` XOR the
 *            nonce (repeating), one key length long. A client that holds the key already sends
 *            that at once.
 *
 * Some versions of MariaDB's client library, over TLS, answer the nonce with the password
 * itself rather than a scramble (they know that full authentication follows): a reply over TLS
 * that is not a scramble is read as the password. (The one Debian ships, 3.3, sends the
 * scramble.) MariaDB's client with TLS on by default, to a gateway that offers none, goes on
 * in plain TCP yet answers "perform full authentication" with the password in clear: that is
 * refused like any password in clear without TLS (`--skip-ssl` makes it ask for the key).
 *
 * A client may also name `mysql_clear_password` in its HandshakeResponse (MariaDB's `mysql
 * --default-auth=mysql_clear_password`, or a client without caching_sha2_password): its auth
 * data is then the password, taken over TLS only. A password that arrives in clear on a
 * connection without TLS is never used ({@link ClearPasswordWithoutTls}).
 *
 * The RSA key pair (2048 bits, MySQL's default) is made once per gateway process, when a
 * client first needs it, and is never written anywhere: a client that saved the public key of
 * an earlier run of the gateway fails to log in until it asks for the key again.
 *
 * The password is a secret: it goes to the server's check and nowhere else, never into a log or
 * an error's text.
 */
import { isUtf8 } from 'node:buffer';
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { scramble, type ClientLogin } from './handshake';
import { CAP, ER, Malformed, authSwitchPayload, send } from './packets';

export const CACHING_SHA2 = 'caching_sha2_password';
const CLEAR_PASSWORD = 'mysql_clear_password';
/** A caching_sha2_password scramble: one SHA-256 digest. */
const SCRAMBLE_LENGTH = 32;
/** AuthMoreData (0x01) carrying caching_sha2_password's "perform full authentication" (0x04). */
const PERFORM_FULL_AUTHENTICATION = Buffer.from([0x01, 0x04]);
const REQUEST_PUBLIC_KEY = 0x02;
const RSA_BITS = 2048;
/** What RSA_BITS encrypts to: the length of the client's encrypted password. */
const RSA_BYTES = RSA_BITS / 8;

/** The client sent its password in clear on a connection without TLS: it is not used. */
export class ClearPasswordWithoutTls extends Error {
  constructor() {
    super('a password in clear without TLS');
    this.name = 'ClearPasswordWithoutTls';
  }
}

interface GatewayKey {
  /** SubjectPublicKeyInfo PEM, as MySQL sends it (clients read it with PEM_read_RSA_PUBKEY). */
  publicPem: Buffer;
  privateKey: crypto.KeyObject;
}

let gatewayKey: Promise<GatewayKey> | undefined;

/** The gateway's RSA key pair: made on first use (off the event loop), then kept. */
function rsaKey(): Promise<GatewayKey> {
  gatewayKey ??= makeKey();
  return gatewayKey;
}

async function makeKey(): Promise<GatewayKey> {
  try {
    const { publicKey, privateKey } = await promisify(crypto.generateKeyPair)('rsa', {
      modulusLength: RSA_BITS,
    });
    const pem = String(publicKey.export({ type: 'spki', format: 'pem' }));
    return { publicPem: Buffer.from(pem, 'latin1'), privateKey };
  } catch (err) {
    gatewayKey = undefined; // the next login tries again
    throw err;
  }
}

/** string<NUL> (or the whole payload without a NUL) as text. */
function clearText(payload: Buffer): string {
  const end = payload.indexOf(0);
  return payload.subarray(0, end === -1 ? undefined : end).toString('utf8');
}

/**
 * Whether a reply over TLS is a scramble rather than the password itself (MariaDB's library).
 * Both can be 32 bytes long (a 31-character password and its NUL): text ends in its NUL and
 * holds no other control byte, which 32 random bytes do less than once in 10^13 tries.
 */
function isScramble(reply: Buffer): boolean {
  if (reply.length !== SCRAMBLE_LENGTH) return false;
  const text = reply.subarray(0, SCRAMBLE_LENGTH - 1);
  const printable = text.every((b) => b >= 0x20 && b !== 0x7f);
  return !(reply[SCRAMBLE_LENGTH - 1] === 0 && printable && isUtf8(text));
}

/** Sends one packet of the exchange and reads the client's answer (updating `login.seq`). */
async function exchange(login: ClientLogin, payload: Buffer): Promise<Buffer> {
  send(login.socket, payload, (login.seq + 1) & 0xff);
  const packet = await login.reader.next();
  if (packet.seq !== ((login.seq + 2) & 0xff)) {
    throw new Malformed('packets out of order', ER.OUT_OF_ORDER);
  }
  login.seq = packet.seq;
  return packet.payload;
}

/** `password\0` XOR the nonce, encrypted with the gateway's public key: the password. */
function decrypted(cipher: Buffer, nonce: Buffer, privateKey: crypto.KeyObject): string {
  let plain: Buffer;
  try {
    plain = crypto.privateDecrypt(
      { key: privateKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
      cipher,
    );
  } catch {
    // Encrypted with another key (saved from an earlier run of the gateway), or not at all.
    throw new Malformed(
      "the password was not encrypted with this gateway's public key; let the client ask for it",
      ER.ACCESS_DENIED,
    );
  }
  for (let i = 0; i < plain.length; i++) {
    plain[i] = (plain[i] as number) ^ (nonce[i % nonce.length] as number);
  }
  const password = clearText(plain);
  plain.fill(0);
  return password;
}

/** Full authentication after the client's first reply to `nonce` (see the head of this file). */
async function fullAuthentication(
  login: ClientLogin,
  nonce: Buffer,
  reply: Buffer,
): Promise<string> {
  if (login.tls) {
    if (!isScramble(reply)) return clearText(reply);
    return clearText(await exchange(login, PERFORM_FULL_AUTHENTICATION));
  }
  // No password at all: an empty reply, which the server's check then refuses.
  if (reply.length === 0) return '';
  if (reply.length !== SCRAMBLE_LENGTH) throw new ClearPasswordWithoutTls();
  // Made (the first time) while the client answers.
  const key = rsaKey();
  void key.catch(() => undefined); // awaited below, where a failure is reported
  let answer = await exchange(login, PERFORM_FULL_AUTHENTICATION);
  if (answer.length === 1 && answer[0] === REQUEST_PUBLIC_KEY) {
    const { publicPem } = await key;
    answer = await exchange(login, Buffer.concat([Buffer.from([0x01]), publicPem]));
  }
  // Anything but a key's length is a password the client thinks it may send in clear.
  if (answer.length !== RSA_BYTES) throw new ClearPasswordWithoutTls();
  return decrypted(answer, nonce, (await key).privateKey);
}

/**
 * Asks the client for a temporary authorization's password (see the head of this file), and
 * updates `login.seq` to the client's last packet. Throws {@link ClearPasswordWithoutTls} for a
 * password sent in clear without TLS, and Malformed for an answer the exchange does not allow.
 */
export async function askPassword(login: ClientLogin): Promise<string> {
  if (login.authPlugin === CLEAR_PASSWORD) {
    if (!login.tls) throw new ClearPasswordWithoutTls();
    return clearText(login.authData);
  }
  if (login.authPlugin === CACHING_SHA2 && login.authData.length > 0) {
    // The client began with caching_sha2_password: this is its reply to the greeting's nonce.
    return fullAuthentication(login, login.nonce, login.authData);
  }
  if (!(login.caps & CAP.PLUGIN_AUTH)) {
    throw new Malformed('the client cannot switch to the password it needs');
  }
  const nonce = scramble();
  const reply = await exchange(
    login,
    authSwitchPayload(CACHING_SHA2, Buffer.concat([nonce, Buffer.from([0])])),
  );
  return fullAuthentication(login, nonce, reply);
}
