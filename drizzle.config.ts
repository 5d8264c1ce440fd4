import { defineConfig } from 'drizzle-kit';

// Migrations are generated offline from the schema and committed; the app applies them at start.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/database/schema.ts',
  out: './src/database/migrations',
  strict: true,
});
