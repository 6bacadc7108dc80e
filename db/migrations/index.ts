// Migrations listed in code rather than read from a folder, so they work the same under tsx and vitest.
import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './0001-foundation';
import * as sales from './0002-sales';
import * as doorsProgrammePasses from './0003-doors-programme-passes';
import * as dropUnreadScanIndex from './0004-drop-unread-scan-index';
import * as constraints from './0005-constraints';
import * as webhooks from './0006-webhooks';

const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-sales': sales,
  '0003-doors-programme-passes': doorsProgrammePasses,
  '0004-drop-unread-scan-index': dropUnreadScanIndex,
  '0005-constraints': constraints,
  '0006-webhooks': webhooks,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
