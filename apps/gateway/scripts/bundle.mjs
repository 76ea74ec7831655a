#!/usr/bin/env node
// Builds the gateway into one JavaScript file for Node 20, the file the server hands to the
// install script: <out-dir>/portcullis-gateway-<version>.js (default out-dir apps/gateway/dist).
//
//   node apps/gateway/scripts/bundle.mjs [--out-dir DIR] [--version X.Y.Z]
//
// ssh2 and ws are bundled (mysql2 and pg no longer: the gateway speaks both protocols itself,
// the connectivity test included; only its tests use the drivers). Optional native parts stay
// out: ssh2's cpu-features and its compiled crypto binding (it falls back to Node's crypto and
// its own JavaScript when they are missing), and pg-native. libpg-query's WebAssembly goes in
// (embed-pg-wasm.mjs). --version stamps
// another version number on the same code; tests use it to stand for an older release.
// Prints the path of the file it wrote. The write is atomic (a temporary file renamed). The
// output is CommonJS (what ssh2 is); a package.json beside it says so.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { embedPgWasm } from './embed-pg-wasm.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const gatewayDir = path.resolve(here, '..');
const packageFile = path.join(gatewayDir, 'package.json');
const VERSION_PATTERN = /^\d{1,4}\.\d{1,4}\.\d{1,4}(-[0-9A-Za-z.]{1,20})?$/;

const { values } = parseArgs({
  options: { 'out-dir': { type: 'string' }, version: { type: 'string' } },
  strict: true,
});
const pkg = JSON.parse(fs.readFileSync(packageFile, 'utf8'));
const version = values.version ?? pkg.version;
if (!VERSION_PATTERN.test(version)) {
  process.stderr.write(`bundle: not a version: ${version}\n`);
  process.exit(2);
}
const outDir = path.resolve(values['out-dir'] ?? path.join(gatewayDir, 'dist'));
const outFile = path.join(outDir, `portcullis-gateway-${version}.js`);

/** Serves apps/gateway/package.json with the stamped version (core/version.ts reads it). */
const stampVersion = {
  name: 'stamp-version',
  setup(b) {
    b.onLoad({ filter: /[\\/]package\.json$/ }, (args) =>
      path.resolve(args.path) === packageFile
        ? { contents: JSON.stringify({ ...pkg, version }), loader: 'json' }
        : undefined,
    );
  },
};

const result = await build({
  entryPoints: [path.join(gatewayDir, 'src', 'main.ts')],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['cpu-features', 'pg-native', '*.node'],
  plugins: [stampVersion, embedPgWasm],
  write: false,
  logLevel: 'error',
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
});
const output = result.outputFiles?.[0];
if (!output) throw new Error('esbuild produced no output');
// The entry's own first line runs it through tsx; the bundle needs plain node.
const body = output.text.replace(/^#!.*\n/, '');
const text = `#!/usr/bin/env node\n// portcullis-gateway ${version}: built by apps/gateway/scripts/bundle.mjs\n${body}`;

fs.mkdirSync(outDir, { recursive: true });
// The bundle is CommonJS; beside it, this says so whatever package.json sits further up.
fs.writeFileSync(path.join(outDir, 'package.json'), '{ "type": "commonjs" }\n');
const tmp = `${outFile}.${process.pid}.tmp`;
fs.writeFileSync(tmp, text, { mode: 0o644 });
fs.renameSync(tmp, outFile);
process.stdout.write(`${outFile}\n`);
