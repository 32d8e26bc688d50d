import { defineConfig } from 'prisma/config';

// The Prisma CLI reads this; the services never do. DATABASE_URL is only needed by
// `prisma migrate`/`studio` run by a team with network access, never by `generate`.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/unused' },
});
