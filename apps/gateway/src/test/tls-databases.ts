/**
 * Scripted databases for the tests of the gateway's TLS towards a target: a loopback server
 * that speaks just enough PostgreSQL or MySQL to be logged in to (any password), offers TLS
 * with the certificate it is given (or declines it without one), and records what the client
 * sent and whether inside TLS. The real databases on loopback have no TLS; these stand in for
 * one that has, with certificates the test chose (test/certs.ts).
 */
import net from 'node:net';
import { Duplex } from 'node:stream';
import tls from 'node:tls';
import { CAP, frame, LoginReader, okPayload } from '../mysql-proxy/packets';
import {
  authenticationCleartext,
  authenticationOk,
  BodyReader,
  message,
  MessageReader,
  readyForQuery,
  SSL_REQUEST,
} from '../postgres-proxy/messages';
import type { TestCert } from './certs';

export interface ScriptedDb {
  port: number;
  /**
   * What the client sent, in order: 'ssl request', then 'startup <user> in tls' (or 'in the
   * clear'), 'password <password> in tls', 'query <sql> in tls' for PostgreSQL, and
   * 'login <user> in tls' for MySQL (its password is a scramble).
   */
  seen: string[];
  /** Connections open at the server now. */
  open(): number;
  close(): Promise<void>;
}

/**
 * Serves `onConnection` on a free loopback port (for this file's databases and other scripted
 * ones); a script that fails or rejects closes its connection.
 */
export async function serveScripted(
  onConnection: (socket: net.Socket, seen: string[]) => void | Promise<void>,
): Promise<ScriptedDb> {
  const seen: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    Promise.resolve()
      .then(() => onConnection(socket, seen))
      .catch(() => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    seen,
    open: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A server-side TLS socket over `raw`; a client that refuses the certificate is no error. */
function acceptTls(raw: Duplex, cert: TestCert): tls.TLSSocket {
  const secure = new tls.TLSSocket(raw, { isServer: true, key: cert.key, cert: cert.cert });
  secure.on('error', () => raw.destroy());
  return secure;
}

/**
 * PostgreSQL: answers the SSLRequest with 'S' and TLS when given a certificate ('N' without),
 * asks for a cleartext password, and answers every Query with an empty result.
 */
export function scriptedPostgres(cert?: TestCert): Promise<ScriptedDb> {
  return serveScripted((raw, seen) => {
    raw.once('data', (first: Buffer) => {
      if (first.length !== 8 || first.readInt32BE(4) !== SSL_REQUEST) return void raw.destroy();
      seen.push('ssl request');
      raw.write(cert ? 'S' : 'N');
      const socket = cert ? acceptTls(raw, cert) : raw;
      const where = cert ? 'in tls' : 'in the clear';
      const reader = new MessageReader(1 << 16, true);
      const idle = readyForQuery(0x49); // 'I'
      socket.on('data', (chunk: Buffer) => {
        reader.push(chunk);
        for (let m = reader.next(); m; m = reader.next()) {
          const body = new BodyReader(m.body);
          if (reader.startup) {
            reader.startup = false;
            body.int32(); // the protocol version
            const user = body.cstring() === 'user' ? body.cstring() : '?';
            seen.push(`startup ${user} ${where}`);
            socket.write(authenticationCleartext());
          } else if (m.type === 0x70 /* 'p' */) {
            seen.push(`password ${body.cstring()} ${where}`);
            socket.write(Buffer.concat([authenticationOk(), idle]));
          } else if (m.type === 0x51 /* 'Q' */) {
            seen.push(`query ${body.cstring()} ${where}`);
            socket.write(Buffer.concat([message('C', 'SELECT 0\0'), idle]));
          } else socket.end();
        }
      });
    });
  });
}

/**
 * A scripted server's HandshakeV10 (layout in mysql-proxy/handshake.ts): CLIENT_SSL in it when
 * TLS is offered, and the auth plugin it announces.
 */
export function mysqlGreeting({
  withTls = false,
  nonce = Buffer.from('ABCDEFGHIJKLMNOPQRST'),
  plugin = 'mysql_native_password',
}: { withTls?: boolean; nonce?: Buffer; plugin?: string } = {}): Buffer {
  const flags = Buffer.alloc(18);
  // PROTOCOL_41 | SECURE_CONNECTION | PLUGIN_AUTH | ..., and CLIENT_SSL when asked.
  const caps = 0x000fa20f | (withTls ? CAP.SSL : 0);
  flags.writeUInt16LE(caps & 0xffff, 0);
  flags[2] = 45;
  flags.writeUInt16LE(caps >>> 16, 5);
  flags[7] = 21;
  return Buffer.concat([
    Buffer.from('\x0a8.0.36\0', 'latin1'),
    Buffer.alloc(4),
    nonce.subarray(0, 8),
    Buffer.from([0]),
    flags,
    nonce.subarray(8),
    Buffer.from(`\0${plugin}\0`, 'latin1'),
  ]);
}

/** The user name of a HandshakeResponse41: after 32 fixed bytes, NUL-terminated. */
const userOf = (payload: Buffer): string =>
  payload.subarray(32, payload.indexOf(0, 32)).toString('utf8');

/**
 * MySQL: a greeting offering TLS when given a certificate, any login accepted with an OK, and
 * an OK to every command but COM_QUIT.
 */
export function scriptedMysql(cert?: TestCert): Promise<ScriptedDb> {
  return serveScripted((raw, seen) => {
    void (async () => {
      raw.write(frame(mysqlGreeting({ withTls: cert !== undefined }), 0));
      const plain = new LoginReader(raw);
      let request = await plain.next();
      let socket: Duplex = raw;
      let reader = plain;
      let where = 'in the clear';
      const sslRequest =
        request.payload.length === 32 && (request.payload.readUInt32LE(0) & CAP.SSL) !== 0;
      if (sslRequest && cert) {
        seen.push('ssl request');
        // The client's TLS hello may have come in the same read: TLS starts from those bytes.
        const stream = new Duplex({
          read() {},
          write(chunk: Buffer, _encoding, done) {
            raw.write(chunk, done);
          },
        });
        stream.push(plain.detach());
        raw.on('data', (chunk: Buffer) => stream.push(chunk));
        raw.on('end', () => stream.push(null));
        socket = acceptTls(stream, cert);
        reader = new LoginReader(socket);
        where = 'in tls';
        request = await reader.next();
      }
      seen.push(`login ${userOf(request.payload)} ${where}`);
      socket.write(frame(okPayload(), request.seq + 1));
      for (;;) {
        const command = await reader.next();
        if (command.payload[0] === 0x01 /* COM_QUIT */) return void socket.end();
        socket.write(frame(okPayload(), command.seq + 1));
      }
    })().catch(() => raw.destroy());
  });
}
