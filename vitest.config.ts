// All tests: `npm test` runs them through scripts/test.mjs, which first starts the peers.
import { defineConfig } from 'vitest/config';

const serverProject = (backend: 'sqlite' | 'postgres') => ({
  test: {
    name: `server-${backend}`,
    include: ['apps/server/src/**/*.test.ts'],
    environment: 'node',
    env: { TEST_DB: backend },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contract',
          include: ['packages/contract/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      serverProject('sqlite'),
      serverProject('postgres'),
      'apps/console',
      'apps/gateway',
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // One browser and one server at a time, and only after every other project has
          // finished: Chromium competing with the jsdom suite for a 2-core machine made clicks
          // and waits time out.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
