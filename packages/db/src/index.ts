export {
  createDatabase,
  createPrismaClient,
  isDatabaseUnavailable,
  isUniqueViolation,
  pingDatabase,
  type Database,
  type Db,
  type PrismaOptions,
} from './client.js';
export { Sql, statement, type Statement } from './sql.js';
export { migrate, readMigrations, checksumOf, MigrationError, MIGRATIONS_DIR, type Migration, type MigrateResult } from './migrate.js';
export { ChangeListener, type ChangeListenerOptions } from './change-listener.js';
export { TimestampBatch, type BatchedColumn } from './timestamp-batch.js';
export { startEmbeddedPostgres, processAlive, type EmbeddedDatabase, type EmbeddedPostgresOptions } from './embedded.js';
export { Prisma } from './generated/prisma/client.js';
export type * from './generated/prisma/client.js';
export * from './generated/prisma/enums.js';
