/**
 * The single-file gateway (scripts/bundle.mjs) has no libpg-query.wasm beside it: the parser's
 * WebAssembly travels inside the bundle (scripts/embed-pg-wasm.mjs). Bundled the same way, in a
 * folder with nothing else, the judge loads and reads PostgreSQL.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without type declarations
import { embedPgWasm } from '../../scripts/embed-pg-wasm.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portcullis-bundled-judge-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Bundles `entry` as scripts/bundle.mjs does the gateway: CommonJS, one file. */
const bundle = (entry: string, outfile: string) =>
  build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile,
    external: ['cpu-features', 'pg-native', '*.node'],
    plugins: [embedPgWasm],
    logLevel: 'error',
  });

it('judges PostgreSQL from a bundle that carries the parser inside', async () => {
  const entry = path.join(dir, 'entry.ts');
  fs.writeFileSync(
    entry,
    [
      `import { judgeSql, loadSqlParsers } from ${JSON.stringify(path.resolve(import.meta.dirname, 'index.ts'))};`,
      'void loadSqlParsers().then(() => {',
      "const policy = { block: [{ op: 'delete' as const, table: 'orders' }], notice: [], approval: false };",
      "console.log(JSON.stringify(judgeSql('postgresql', 'SELECT 1; /* x */ DELETE FROM public.\"orders\"', policy)));",
      '});',
    ].join('\n'),
  );
  const out = path.join(dir, 'out', 'judge.cjs');
  await bundle(entry, out);
  expect(fs.readdirSync(path.dirname(out))).toEqual(['judge.cjs']);
  const { stdout } = await promisify(execFile)(process.execPath, [out], { cwd: dir });
  expect(JSON.parse(stdout)).toMatchObject({ action: 'block', reason: 'rule' });
}, 60_000);

it('judges a large text in a worker thread running the bundle itself', async () => {
  const entry = path.join(dir, 'worker-entry.ts');
  const index = JSON.stringify(path.resolve(import.meta.dirname, 'index.ts'));
  fs.writeFileSync(
    entry,
    [
      `import { isJudgeWorker, judgeSqlOffThread, runJudgeWorker, useJudgeWorkerEntry } from ${index};`,
      'if (isJudgeWorker()) runJudgeWorker();',
      'else {',
      '  useJudgeWorkerEntry(process.argv[1]!);',
      "  const values = Array.from({ length: 20000 }, (_, i) => `(${i}, 'item ${i}')`).join(',');",
      "  const policy = { block: [{ op: 'delete' as const, table: 'orders' }], notice: [], approval: false };",
      '  const sql = `INSERT INTO bulk VALUES ${values}; DELETE FROM orders`;',
      "  void judgeSqlOffThread('postgresql', sql, policy).then((verdict) => {",
      '    console.log(JSON.stringify(verdict));',
      '  });',
      '}',
    ].join('\n'),
  );
  const out = path.join(dir, 'worker-out', 'gateway.cjs');
  await bundle(entry, out);
  const { stdout } = await promisify(execFile)(process.execPath, [out], { cwd: dir });
  expect(JSON.parse(stdout)).toMatchObject({ action: 'block', reason: 'rule' });
}, 60_000);
