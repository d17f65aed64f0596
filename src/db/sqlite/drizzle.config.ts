import { defineConfig } from 'drizzle-kit';

/** `npm run db:generate` writes both dialects' migrations; this is the SQLite side. */
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/sqlite/schema.ts',
  out: './migrations',
});
