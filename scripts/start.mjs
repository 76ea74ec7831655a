#!/usr/bin/env node
// `npm start`: builds the console when it has not been built, then runs the server (API and
// console on PORT, default 8080) with SQLite and local storage under DATA_DIR (./data).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps', 'console', 'dist', 'index.html');

if (!fs.existsSync(dist)) {
  process.stdout.write('Building the console (first start only)…\n');
  const build = spawnSync(
    path.join(root, 'node_modules', '.bin', 'vite'),
    ['build', 'apps/console', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'apps', 'server', 'src', 'main.ts')],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      CONSOLE_DIST: process.env.CONSOLE_DIST ?? path.join(root, 'apps', 'console', 'dist'),
    },
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
