#!/usr/bin/env node
// `npm start`: builds the console when it has not been built, then runs the server (API and
// console on PORT, default 8080) with SQLite and local storage under DATA_DIR (./data), and one
// gateway beside it as the agent of the default cluster "Local" (LOCAL_GATEWAY=off to skip).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps', 'console', 'dist', 'index.html');
const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
const gatewayConfig = path.join(dataDir, 'local-gateway.json');

if (!fs.existsSync(dist)) {
  process.stdout.write('Building the console (first start only)…\n');
  const build = spawnSync(
    path.join(root, 'node_modules', '.bin', 'vite'),
    ['build', 'apps/console', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit' },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const children = new Set();
function run(name, entry, args = []) {
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      CONSOLE_DIST: process.env.CONSOLE_DIST ?? path.join(root, 'apps', 'console', 'dist'),
    },
  });
  children.add(child);
  child.on('exit', (code) => {
    children.delete(child);
    // The server is the product: when it ends, everything ends.
    if (name === 'server') {
      for (const other of children) other.kill('SIGTERM');
      process.exit(code ?? 0);
    }
  });
  return child;
}

run('server', path.join(root, 'apps', 'server', 'src', 'main.ts'));

if (process.env.LOCAL_GATEWAY !== 'off') {
  // The server writes the gateway's config on its first start; wait for it.
  const started = Date.now();
  const timer = setInterval(() => {
    if (fs.existsSync(gatewayConfig)) {
      clearInterval(timer);
      run('gateway', path.join(root, 'apps', 'gateway', 'src', 'main.ts'), [
        '--config',
        gatewayConfig,
      ]);
    } else if (Date.now() - started > 60_000) {
      clearInterval(timer);
      process.stderr.write(
        'The local gateway was not started: no config appeared in the data folder.\n',
      );
    }
  }, 250);
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
  });
}
