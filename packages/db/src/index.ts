export {
  createDatabase,
  createPrismaClient,
  isDatabaseUnavailable,
  isRecoveryConflict,
  isRowGone,
  isUniqueViolation,
  pingDatabase,
  unlessGone,
  type Database,
  type Db,
  type PrismaOptions,
} from './client.js';
export { Sql, statement, type Statement } from './sql.js';
export { CallGroups } from './call-groups.js';
export { countStatements } from './statement-count.js';
export { migrate, readMigrations, checksumOf, MigrationError, MIGRATIONS_DIR, type Migration, type MigrateResult } from './migrate.js';
export { ChangeListener, type ChangeListenerOptions } from './change-listener.js';
export { TimestampBatch, type BatchedColumn } from './timestamp-batch.js';
export { CountBatch } from './count-batch.js';
export {
  applyServiceRoles,
  ENVIRONMENT_MARK_SQL,
  environmentMarked,
  markDatabaseEnvironment,
  ROLE_PASSWORD_VARIABLES,
  SERVICE_ROLES,
  SERVICE_ROLES_SQL,
  serviceRoleNames,
  serviceRolesSql,
  type RoleService,
} from './service-roles.js';
export { startEmbeddedPostgres, processAlive, type EmbeddedDatabase, type EmbeddedPostgresOptions } from './embedded.js';
export { Prisma } from './generated/prisma/client.js';
export type * from './generated/prisma/client.js';
export * from './generated/prisma/enums.js';
export { ensureDatabaseExists, sandboxDatabaseUrl } from './sandbox-database.js';
export { outboxInsert, type OutboxEvent, walletApprovalRevoked, walletApprovalsOfApplicationRevoked } from './webhook-outbox.js';
