/**
 * The floor under any Node.js gateway: a plain TCP relay in a process of its own, with no SSH
 * at all (the client's SSH session passes through it untouched to the target sshd). What it
 * adds over direct is what one Node.js process hop costs on this machine: the event loop's
 * wake-up, a read and a write each way. The bench runs `socat` beside it, the same hop in C.
 *
 * Settings from the environment: TCP_RELAY_PORT, TCP_RELAY_TARGET_PORT. It prints "ready" on
 * the IPC channel once it listens.
 */
import net from 'node:net';

const port = Number(process.env.TCP_RELAY_PORT);
const targetPort = Number(process.env.TCP_RELAY_TARGET_PORT);

const server = net.createServer((client) => {
  const target = net.connect(targetPort, '127.0.0.1');
  // As the gateway does: a keystroke is sent at once, not held for Nagle.
  client.setNoDelay(true);
  target.setNoDelay(true);
  client.pipe(target);
  target.pipe(client);
  client.on('error', () => target.destroy());
  target.on('error', () => client.destroy());
});
server.listen(port, '127.0.0.1', () => process.send?.('ready'));
process.on('message', (message: unknown) => {
  if (message === 'stop') server.close(() => process.exit(0));
});
