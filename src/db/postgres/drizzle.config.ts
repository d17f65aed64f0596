import { defineConfig } from 'drizzle-kit';

/** `npm run db:generate` writes both dialects' migrations; this is the PostgreSQL side. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/postgres/schema.ts',
  out: './migrations/postgres',
});
