// Bundles the `lucie` command into dist/lucie.mjs so `npx lucie` starts fast (run by `prepare` on npm ci).
import { build } from 'esbuild';

await build({
  entryPoints: ['cli/lucie.ts'],
  outfile: 'dist/lucie.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
});
