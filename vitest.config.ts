import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';
import { messages } from './vite-messages.js';

export default defineConfig({
  plugins: [svelte(), messages()],
  test: {
    // Two files at a time even on two cores (vitest would take one): most tests wait on sockets,
    // timers, databases and Chromium rather than compute. Browser files still go one at a time.
    maxWorkers: 2,
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
        // worker imports playwright-core and the helpers once for every file (about 6 s a file before).
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          isolate: false,
          globalSetup: ['test/shots.ts', 'test/browser/client-build.ts'],
        },
      },
    ],
  },
});
