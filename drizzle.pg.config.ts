import { defineConfig } from 'drizzle-kit';

// The PostgreSQL schema's migrations (`npm run db:generate:pg`), apart from SQLite's in migrations/.
// Paths resolve from the working directory: run it from the repo root.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/pg/schema.ts',
  out: './migrations/pg',
});
