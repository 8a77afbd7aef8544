import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';
import { messages } from './vite-messages.js';

export default defineConfig({
  plugins: [svelte(), messages()],
  test: {
    // PostgreSQL and Redis for the storage and scale-out tests (already up in CI).
    globalSetup: ['test/services.ts', 'test/shots.ts'],
    // Two files at a time even on two cores (vitest would take one): most tests wait on sockets,
    // timers, databases and Chromium rather than compute. Browser files still go one at a time.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: ['test/browser/**'], testTimeout: 30_000 },
      },
      {
        extends: true,
        // Browser tests drive Debian's Chromium through playwright-core against a real server.
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000, fileParallelism: false },
      },
    ],
  },
});
