// All tests: `npm test` runs them through scripts/test.mjs, which first starts the peers.
import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files at once. Vitest's own default on the 2-core CI machine is one worker, which ran
 * the whole suite a file at a time (the 188 files before the end-to-end tests took 14 minutes,
 * 9.8 with two workers); the files mostly wait on peers (sshd, the databases, the gateway), so
 * two run well on two cores.
 */
const WORKERS = Math.max(2, os.availableParallelism());

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
    maxWorkers: WORKERS,
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
          // and waits time out, and so did two end-to-end files at once (clusters.test.ts's
          // upload-key dialog, once in four fresh-clone runs).
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
