// The gateway's tests (run from the root with `npx vitest run --config apps/gateway/vitest.config.ts`
// until the root config lists this project). They use the real peers: sshd started per test file
// by scripts/peers/sshd.mjs, MariaDB on 127.0.0.1:3306 and PostgreSQL on 127.0.0.1:5432.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Paths resolve from this folder however the config is loaded (--config or as a project).
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'gateway',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
  },
});
