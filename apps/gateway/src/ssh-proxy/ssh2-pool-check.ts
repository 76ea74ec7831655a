/**
 * Run by ssh2.test.ts in a process of its own (ssh2 loaded fresh, as in the gateway): an ssh2
 * server and client from ssh2.ts shake hands on loopback, and the bytes their packets' padding
 * took from the pool are printed. More than 0 means ssh2 draws its padding from the pool.
 */
import crypto from 'node:crypto';
import ssh2, { poolBytesServed, poolRandomFill } from './ssh2';
import { newEd25519Key } from './host-key';

const server = new ssh2.Server({ hostKeys: [newEd25519Key().private] }, (client) => {
  client.on('authentication', (ctx) => ctx.accept());
  client.on('ready', () => client.end());
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const client = new ssh2.Client();
  client.on('ready', () => client.end());
  client.on('close', () => {
    server.close();
    const restored = crypto.randomFillSync !== poolRandomFill;
    process.stdout.write(JSON.stringify({ served: poolBytesServed(), restored }));
  });
  client.connect({ host: '127.0.0.1', port, username: 'check' });
});
