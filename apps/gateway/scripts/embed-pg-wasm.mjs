// An esbuild plugin for the single-file gateway: libpg-query (the PostgreSQL parser of the
// database proxies' SQL rules, sql-audit/postgres.ts) loads its WebAssembly from a file beside
// its own script, which a one-file bundle does not have. The plugin puts the .wasm bytes into
// the bundle and has the loader's file read answer with them. It fails the build when
// libpg-query's loader no longer looks as expected, rather than ship a gateway whose database
// rules cannot load (they would refuse every statement).
import fs from 'node:fs';
import path from 'node:path';

/** Where libpg-query's Emscripten loader reads a file synchronously in Node. */
const HOOK = 'readBinary=filename=>{';

export const embedPgWasm = {
  name: 'embed-libpg-query-wasm',
  setup(build) {
    build.onLoad({ filter: /libpg-query[\\/]wasm[\\/]libpg-query\.js$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      if (!source.includes(HOOK)) {
        throw new Error(`embed-pg-wasm: ${args.path} no longer has "${HOOK}"; update the plugin`);
      }
      const wasm = await fs.promises.readFile(
        path.join(path.dirname(args.path), 'libpg-query.wasm'),
      );
      const bytes = `var __portcullisPgWasm=Buffer.from(${JSON.stringify(wasm.toString('base64'))},"base64");`;
      const answer = 'if(String(filename).endsWith("libpg-query.wasm"))return __portcullisPgWasm;';
      return { contents: bytes + source.replace(HOOK, HOOK + answer), loader: 'js' };
    });
  },
};
