#!/usr/bin/env node
// `npm test`: starts the peers, builds the console, checks formatting, lint and types, then
// runs every test (contract, server on SQLite and PostgreSQL, console, end-to-end in Chromium).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function step(title, command, args) {
  process.stdout.write(`\n=== ${title}\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    process.stdout.write(`\n${title} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status || 1);
  }
}

step('peers', process.execPath, [path.join(root, 'scripts', 'ensure-peers.mjs')]);
step('console build', bin('vite'), ['build', 'apps/console', '--logLevel', 'warn']);
step('format', bin('prettier'), ['--check', '--log-level', 'warn', '.']);
step('lint', bin('eslint'), ['--max-warnings', '0', '.']);
for (const project of ['packages/contract', 'apps/server', 'apps/gateway', 'apps/console', 'e2e']) {
  step(`types: ${project}`, bin('tsc'), ['-p', project]);
}

const report = path.join(root, '.test-artifacts', 'vitest.json');
fs.mkdirSync(path.dirname(report), { recursive: true });
process.stdout.write('\n=== tests\n');
const run = spawnSync(
  bin('vitest'),
  [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit', env: process.env },
);
if (fs.existsSync(report)) {
  const r = JSON.parse(fs.readFileSync(report, 'utf8'));
  process.stdout.write(
    `\n${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped\n`,
  );
}
process.exit(run.status ?? 1);
