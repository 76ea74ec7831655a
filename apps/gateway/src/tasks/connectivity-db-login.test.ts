/**
 * The connectivity test of MySQL and PostgreSQL logs in as a session does: against scripted
 * databases that ask for what the real ones on loopback cannot (MySQL's sha256_password, which
 * MariaDB lacks; PostgreSQL's GSSAPI; a server full at the greeting), and ones that never
 * speak, to see the test give the connection up at its deadline.
 */
import crypto from 'node:crypto';
import type net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectivityTarget } from '../control/protocol';
import {
  authSwitchPayload,
  ER,
  errPayload,
  frame,
  LoginReader,
  okPayload,
} from '../mysql-proxy/packets';
import { BodyReader, message, MessageReader, SSL_REQUEST } from '../postgres-proxy/messages';
import { waitFor } from '../test/net';
import { mysqlGreeting, serveScripted, type ScriptedDb } from '../test/tls-databases';
import { runConnectivityTest } from './connectivity-test';

type Scripted = ScriptedDb;

const servers: ScriptedDb[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** Serves `onConnection` on a free loopback port, closed after the test. */
async function scripted(
  onConnection: (socket: net.Socket, seen: string[]) => Promise<void>,
): Promise<Scripted> {
  const server = await serveScripted(onConnection);
  servers.push(server);
  return server;
}

const target = (kind: 'mysql' | 'postgresql', port: number, password = 'S3cret-pw') =>
  ({ kind, host: '127.0.0.1', port, username: 'app', password }) satisfies ConnectivityTarget;

/**
 * MySQL with the account on sha256_password (MySQL 8's older SHA-256 plugin): the server
 * switches to it after the HandshakeResponse, sends its RSA public key when asked, and accepts
 * `password` encrypted with it (XOR the scramble, RSA-OAEP), as MySQL does without TLS.
 */
function sha256PasswordMysql(password: string): Promise<Scripted> {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const nonce = Buffer.from('0123456789abcdefghij');
  return scripted(async (socket, seen) => {
    const reader = new LoginReader(socket);
    socket.write(frame(mysqlGreeting(), 0));
    const response = await reader.next();
    seen.push('handshake response');
    const data = Buffer.concat([nonce, Buffer.from([0])]);
    socket.write(frame(authSwitchPayload('sha256_password', data), response.seq + 1));
    let packet = await reader.next();
    if (packet.payload.length === 1 && packet.payload[0] === 0x01) {
      seen.push('public key asked');
      const pem = Buffer.from(publicKey.export({ type: 'spki', format: 'pem' }));
      socket.write(frame(Buffer.concat([Buffer.from([0x01]), pem]), packet.seq + 1));
      packet = await reader.next();
    }
    const mixed = crypto.privateDecrypt(
      { key: privateKey, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING },
      packet.payload,
    );
    const sent = Buffer.from(mixed.map((b, i) => b ^ (nonce[i % nonce.length] as number)));
    const right = sent.toString('utf8') === `${password}\0`;
    seen.push(right ? 'password right' : 'password wrong');
    const answer = right ? okPayload() : errPayload(ER.ACCESS_DENIED, 'Access denied');
    socket.write(frame(answer, packet.seq + 1));
    const command = await reader.next();
    seen.push(command.payload[0] === 0x01 ? 'quit' : 'command');
    socket.end();
  });
}

describe('mysql (scripted)', () => {
  it('answers auth_failed for an account on an auth plugin sessions refuse (sha256_password)', async () => {
    // Every session to this account fails (the gateway refuses the plugin, fail closed), so the
    // test must not say ok; a driver that speaks sha256_password would have logged in here.
    const db = await sha256PasswordMysql('S3cret-pw');
    const result = await runConnectivityTest(target('mysql', db.port), { timeoutMs: 5000 });
    expect(result).toEqual({ ok: false, reason: 'auth_failed' });
    // Refused at the switch: neither the key asked for nor any form of the password sent.
    expect(db.seen).toEqual(['handshake response']);
    await waitFor(() => db.open() === 0, 2000, 'the connection closed');
  });

  it('answers refused when the server is full at the greeting (ER_CON_COUNT_ERROR)', async () => {
    const db = await scripted(async (socket) => {
      // ERR_Packet: 0xff / int<2> 1040 (ER_CON_COUNT_ERROR) / '#' sql_state / message.
      const full = Buffer.concat([
        Buffer.from([0xff, 0x10, 0x04]),
        Buffer.from('#08004Too many connections'),
      ]);
      socket.end(frame(full, 0));
    });
    const result = await runConnectivityTest(target('mysql', db.port), { timeoutMs: 5000 });
    expect(result).toEqual({ ok: false, reason: 'refused' });
  });

  it('answers tls_failed when the TLS handshake fails (a session would fail there too)', async () => {
    // TLS offered in the greeting, then plain bytes where the ServerHello should be: the
    // gateway uses TLS whenever it is offered, so every session stops here as well.
    const db = await scripted(async (socket, seen) => {
      const reader = new LoginReader(socket);
      socket.write(frame(mysqlGreeting({ withTls: true }), 0));
      await reader.next();
      seen.push('ssl request');
      reader.detach();
      socket.write('this is not TLS\r\n');
    });
    const result = await runConnectivityTest(target('mysql', db.port), { timeoutMs: 5000 });
    expect(result).toEqual({ ok: false, reason: 'tls_failed' });
    expect(db.seen).toEqual(['ssl request']);
    await waitFor(() => db.open() === 0, 2000, 'the connection closed');
  });

  it('gives the login up at the deadline: timeout, and the connection closed at once', async () => {
    const db = await scripted(async (socket, seen) => {
      seen.push('connected');
      socket.on('data', () => undefined); // never a greeting
    });
    const result = await runConnectivityTest(target('mysql', db.port), { timeoutMs: 500 });
    expect(result).toEqual({ ok: false, reason: 'timeout' });
    expect(db.seen).toEqual(['connected']);
    // Not left to the login's own 10 s timer.
    await waitFor(() => db.open() === 0, 1000, 'the connection closed');
  });
});

/**
 * PostgreSQL that answers the SSLRequest with 'N' (none comes from a driver without TLS: the
 * start-up is then the first message) and the StartupMessage with `answer`.
 */
function scriptedPostgres(answer: () => Buffer | undefined): Promise<Scripted> {
  return scripted(async (socket, seen) => {
    const reader = new MessageReader(1 << 16, true);
    const read = (): void => {
      for (let m = reader.next(); m && reader.startup; m = reader.next()) {
        const body = new BodyReader(m.body);
        if (body.int32() === SSL_REQUEST) {
          seen.push('ssl request');
          socket.write('N');
          continue;
        }
        reader.startup = false;
        seen.push(`startup ${body.cstring() === 'user' ? body.cstring() : '?'}`);
        const reply = answer();
        if (reply) socket.write(reply);
      }
    };
    socket.on('data', (chunk: Buffer) => {
      reader.push(chunk);
      try {
        read();
      } catch {
        socket.destroy();
      }
    });
  });
}

describe('postgresql (scripted)', () => {
  it('answers tls_failed when the TLS handshake fails (a session would fail there too)', async () => {
    // 'S' to the SSLRequest, then plain bytes where the ServerHello should be.
    const db = await scripted(async (socket, seen) => {
      socket.once('data', () => {
        seen.push('ssl request');
        socket.write('S');
        // Apart from the 'S' (bytes with it would be refused as injected before TLS).
        socket.once('data', () => socket.write('this is not TLS\r\n'));
      });
    });
    const result = await runConnectivityTest(target('postgresql', db.port), { timeoutMs: 5000 });
    expect(result).toEqual({ ok: false, reason: 'tls_failed' });
    expect(db.seen).toEqual(['ssl request']);
    await waitFor(() => db.open() === 0, 2000, 'the connection closed');
  });

  it('answers auth_failed when the server asks for a method sessions do not speak (GSSAPI)', async () => {
    const db = await scriptedPostgres(() => message('R', 7)); // AuthenticationGSS
    const result = await runConnectivityTest(target('postgresql', db.port), { timeoutMs: 5000 });
    expect(result).toEqual({ ok: false, reason: 'auth_failed' });
    await waitFor(() => db.open() === 0, 2000, 'the connection closed');
  });

  it('gives the login up at the deadline: timeout, and the connection closed at once', async () => {
    const db = await scriptedPostgres(() => undefined); // the start-up is never answered
    const result = await runConnectivityTest(target('postgresql', db.port), { timeoutMs: 500 });
    expect(result).toEqual({ ok: false, reason: 'timeout' });
    expect(db.seen).toEqual(['ssl request', 'startup app']);
    // Not left to the login's own 15 s timer.
    await waitFor(() => db.open() === 0, 1000, 'the connection closed');
  });
});
