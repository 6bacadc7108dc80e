// Migrations listed in code rather than read from a folder, so they work the same under tsx and vitest.
import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './0001-foundation';

const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
