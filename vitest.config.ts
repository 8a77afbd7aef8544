import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { messages } from './vite-messages.js';

// The unit files that take most of a minute each (servers started, killed and restarted), longest
// first: begun first, they leave the short files to fill in, and the two workers end together
// instead of one running the last long file alone (a fresh clone has no timings to sort by).
const LONGEST = [
  'test/repo/npm-start.test.ts',
  'test/server/rolling-restart.test.ts',
  'test/server/chaos.test.ts',
  'test/server/instances.test.ts',
  'test/server/timer-owner.test.ts',
  'test/server/wal-bound.test.ts',
  'test/repo/backup-drill.test.ts',
];

// The browser files are a group of their own (groupOrder below), so only the order within a project matters.
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const index = LONGEST.findIndex((path) => spec.moduleId.endsWith(path));
      return index < 0 ? LONGEST.length : index;
    };
    // A stable sort: the other files keep vitest's own order.
    return (await super.sort(files)).toSorted((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  plugins: [svelte(), messages()],
  test: {
    // Two files at a time even on two cores (vitest would take one): most tests wait on sockets,
    // timers, databases and Chromium rather than compute. Browser files still go one at a time.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        // PostgreSQL and Redis for the storage and scale-out tests (already up in CI). The files of
        // a worker share their modules: importing the server afresh for each of 127 files was a
        // third of the project's time. No test mocks a module or changes the environment for good.
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/browser/**'],
          testTimeout: 30_000,
          isolate: false,
          globalSetup: ['test/services.ts'],
        },
      },
      {
        extends: true,
        // Browser tests drive Debian's Chromium through playwright-core against a real server.
        // A folder per run for their screenshots, and the client built once for every file. One
        // worker imports playwright-core and the helpers once for every file (about 1 s a file saved).
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          isolate: false,
          // After the unit files (a group of its own: its one worker differs from their two).
          sequence: { groupOrder: 1 },
          globalSetup: ['test/shots.ts', 'test/browser/client-build.ts'],
        },
      },
    ],
  },
});
