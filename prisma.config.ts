// Prisma CLI configuration. The app never uses the CLI's migration engine (see lib/db/migrate.ts);
// this file only tells `prisma generate` (and `prisma migrate deploy`, where the engine exists) where things are.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/sitemap_audit' },
});
