import { defineConfig } from 'drizzle-kit';

// drizzle-kit resolves these paths from the working directory: run it from the repo root
// (`npm run db:generate`).
export default defineConfig({
  dialect: 'sqlite',
  schema: './server/db/schema.ts',
  out: './migrations',
});
