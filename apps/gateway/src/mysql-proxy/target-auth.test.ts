// The target login's scrambles, and caching_sha2_password's full authentication (RSA public
// key asked from the server, or the password inside TLS) against a scripted server: MariaDB
// has no caching_sha2_password.
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Duplex } from 'node:stream';
import tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger';
import { loadProxyTls } from '../db-proxy/tls';
import { LoginReader, frame } from './packets';
import { mysqlGreeting } from '../test/tls-databases';
import { cachingSha2Scramble, loginTarget, nativeScramble, TargetLoginError } from './target-auth';

const sha256 = (...parts: Buffer[]): Buffer => {
  const h = crypto.createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

const servers: net.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** CLIENT_SSL, as a greeting announces TLS. */
const SSL_CAP = 0x800;

/** A greeting announcing caching_sha2_password. */
const greeting = (nonce: Buffer, withTls = false): Buffer =>
  mysqlGreeting({ nonce, withTls, plugin: 'caching_sha2_password' });

/** Serves `server` on a free loopback port and logs in to it as app with `password`. */
async function loginTo(server: net.Server, password: string): ReturnType<typeof loginTarget> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  return loginTarget({
    target: { host: '127.0.0.1', port, username: 'app', password },
    clientCaps: 0,
    maxPacket: 0,
    collation: 45,
    database: '',
  });
}

describe('target login', () => {
  it('computes a mysql_native_password scramble the server can verify', () => {
    const sha1 = (...parts: Buffer[]): Buffer => {
      const h = crypto.createHash('sha1');
      for (const p of parts) h.update(p);
      return h.digest();
    };
    const salt = crypto.randomBytes(20);
    const stored = sha1(sha1(Buffer.from('s3cret')));
    const scramble = nativeScramble('s3cret', salt);
    const stage1 = Buffer.from(scramble.map((v, i) => v ^ (sha1(salt, stored)[i] as number)));
    expect(sha1(stage1)).toEqual(stored);
    expect(nativeScramble('', salt).length).toBe(0);
  });

  it('computes a caching_sha2_password scramble the server can verify', () => {
    const nonce = crypto.randomBytes(20);
    const stored = sha256(sha256(Buffer.from('pä55')));
    const scramble = cachingSha2Scramble('pä55', nonce);
    const hash = Buffer.from(scramble.map((v, i) => v ^ (sha256(stored, nonce)[i] as number)));
    expect(sha256(hash)).toEqual(stored);
  });

  it('logs in inside TLS when the server offers it, sending the password only there', async () => {
    // The certificate the gateway makes for its own clients serves the scripted server too.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-mysql-tls-'));
    const { key, cert } = (await loadProxyTls(dir, silentLogger))!;
    fs.rmSync(dir, { recursive: true, force: true });
    const nonce = Buffer.from('ABCDEFGHIJKLMNOPQRST');
    const seen: string[] = [];
    const server = net.createServer((raw) => {
      void (async () => {
        raw.write(frame(greeting(nonce, true), 0));
        const plainReader = new LoginReader(raw);
        const request = await plainReader.next();
        // The SSLRequest: 32 bytes, CLIENT_SSL set, nothing of the login in it.
        seen.push(`ssl request ${request.seq} ${request.payload.length}`);
        seen.push(`ssl flag ${(request.payload.readUInt32LE(0) & SSL_CAP) !== 0}`);
        // The client's TLS hello may have come in the same read: TLS starts from those bytes.
        const early = plainReader.detach();
        const stream = new Duplex({
          read() {},
          write(chunk: Buffer, _encoding, done) {
            raw.write(chunk, done);
          },
        });
        stream.push(early);
        raw.on('data', (chunk: Buffer) => stream.push(chunk));
        raw.on('end', () => stream.push(null));
        const socket = new tls.TLSSocket(stream, { isServer: true, key, cert });
        const reader = new LoginReader(socket);
        const response = await reader.next();
        seen.push(`response ${response.seq}`);
        socket.write(frame(Buffer.from([0x01, 0x04]), response.seq + 1)); // full authentication
        const password = await reader.next();
        seen.push(`password ${password.payload.toString()}`);
        socket.write(frame(Buffer.from([0, 0, 0, 2, 0, 0, 0]), password.seq + 1));
      })().catch(() => raw.destroy());
    });
    const login = await loginTo(server, 'tls-pass');
    expect(seen).toEqual([
      'ssl request 1 32',
      'ssl flag true',
      'response 2',
      'password tls-pass\0',
    ]);
    expect(login.socket).toBeInstanceOf(tls.TLSSocket);
    login.socket.destroy();
  });

  it('gives up when the database never answers the TLS handshake (no hang)', async () => {
    // The greeting offers TLS, then the ClientHello is never answered: the login's own timer
    // ends it, which leaves the TLS socket with 'close' alone (before: pending for good).
    const server = net.createServer((raw) => {
      raw.write(frame(greeting(Buffer.alloc(20, 0x41), true), 0));
      raw.on('data', () => undefined);
    });
    const refused = await loginTo(server, 'never-sent').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TargetLoginError);
    expect((refused as Error).message).toBe('the database closed the connection during TLS');
  }, 20_000);

  it('does caching_sha2_password full authentication with the server RSA key', async () => {
    const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const nonce = Buffer.from('abcdefghijklmnopqrst');
    const seen: string[] = [];
    const server = net.createServer((socket) => {
      const reader = new LoginReader(socket);
      void (async () => {
        socket.write(frame(greeting(nonce), 0));
        const response = await reader.next();
        seen.push(`response ${response.seq}`);
        socket.write(frame(Buffer.from([0x01, 0x04]), 2)); // perform full authentication
        const ask = await reader.next();
        seen.push(`ask ${ask.payload.toString('hex')}`);
        const pem = publicKey.export({ type: 'spki', format: 'pem' });
        socket.write(frame(Buffer.concat([Buffer.from([0x01]), Buffer.from(pem)]), 4));
        const encrypted = await reader.next();
        const plain = crypto.privateDecrypt(
          { key: privateKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING },
          encrypted.payload,
        );
        const password = Buffer.from(plain.map((v, i) => v ^ (nonce[i % 20] as number)));
        seen.push(`password ${password.toString()}`);
        socket.write(frame(Buffer.from([0, 0, 0, 2, 0, 0, 0]), 6));
      })().catch(() => socket.destroy());
    });
    const login = await loginTo(server, 'long-pass');
    expect(seen).toEqual(['response 1', 'ask 02', 'password long-pass\0']);
    expect(login.serverVersion).toBe('8.0.36');
    login.socket.destroy();
  });
});
