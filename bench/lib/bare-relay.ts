/**
 * The floor under the gateway's echo latency: a bare ssh2 relay in a process of its own, as
 * the gateway is, with none of the product around it (no code check, no recording, no
 * control channel). It accepts any client (auth `none`) and runs the client's exec or shell,
 * with its pty, on the target as the bench's target user. What it adds over direct is what
 * stock ssh2 and one more process hop cost on this machine. The gateway loads ssh2 with its
 * packet padding drawn from a pool (apps/gateway/src/ssh-proxy/ssh2.ts), which this relay
 * leaves out on purpose: the difference is that change's worth.
 *
 * Settings from the environment: BARE_PORT, BARE_TARGET_PORT, BARE_TARGET_USER,
 * BARE_TARGET_PASSWORD. It prints "ready" on the IPC channel once it listens.
 */
// ssh2 is CommonJS: Node's ESM loader sees only its default export.
import ssh2, { type Client, type PseudoTtyInfo } from 'ssh2';
import { socketOf } from '../../apps/gateway/src/ssh-proxy/fair-read';
import { newEd25519Key } from '../../apps/gateway/src/ssh-proxy/host-key';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const hostKey = newEd25519Key().private;

const server = new ssh2.Server({ hostKeys: [hostKey] }, (client) => {
  // The gateway does the same for keystrokes (ssh2 leaves Nagle on).
  socketOf(client)?.setNoDelay(true);
  let upstream: Client | undefined;
  client.on('authentication', (ctx) => {
    const up = new ssh2.Client();
    up.once('ready', () => {
      upstream = up;
      ctx.accept();
    });
    up.once('error', () => ctx.reject());
    up.connect({
      host: '127.0.0.1',
      port: Number(env('BARE_TARGET_PORT')),
      username: env('BARE_TARGET_USER'),
      password: env('BARE_TARGET_PASSWORD'),
    });
    up.setNoDelay(true);
  });
  client.on('session', (accept) => {
    const session = accept();
    let pty: PseudoTtyInfo | undefined;
    session.on('pty', (ok, _no, info) => {
      pty = info;
      ok?.();
    });
    session.on('exec', (ok, _no, info) => {
      const channel = ok();
      upstream?.exec(info.command, pty ? { pty } : {}, (err, target) => {
        if (err) return void channel.close();
        target.pipe(channel);
        channel.pipe(target);
        target.on('close', () => channel.close());
      });
    });
  });
  client.on('close', () => upstream?.end());
  client.on('error', () => undefined);
});
server.listen(Number(env('BARE_PORT')), '127.0.0.1', () => process.send?.('ready'));
process.on('message', (message: unknown) => {
  if (message === 'stop') server.close(() => process.exit(0));
});
