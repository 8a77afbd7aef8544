import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';
import { pagePreloads } from './scripts/page-preload-plugin.js';
import { serviceWorker } from './scripts/service-worker-plugin.js';
import { shellChunk } from './scripts/shell-chunk-plugin.js';
import { messages } from './vite-messages.js';

const server = `http://${process.env.HOST ?? '127.0.0.1'}:${process.env.PORT ?? 3000}`;

export default defineConfig({
  root: 'client',
  // The pages' copies of index.html come before the service worker, which precaches them too.
  plugins: [svelte(), messages(), shellChunk(), pagePreloads(), serviceWorker()],
  build: { outDir: '../dist/client', emptyOutDir: true },
  server: { proxy: { '/api': server, '/ws': { target: server, ws: true } } },
});
