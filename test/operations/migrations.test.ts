// Migrations that cannot run leave nothing behind and refuse the start with a message; a database
// of a newer version is refused before anything runs; `tessera migrate --status` says where a
// database stands without changing it, and `tessera migrate` runs what is pending. On the store the
// suite runs on (SQLite, or PostgreSQL under test:postgres: each data folder its own database).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, MigrationRefused, migrateToLatest } from '../../db/connect';
import { isPostgres, postgresSchema, schemaColumns } from '../../db/dialect';
import { allMigrations } from '../../db/migrations';
import { rebuildTable, withForeignKeysOff } from '../../db/rebuild-table';
import { endAll, openDataDir, runTessera } from '../support/spawned';
import { onPostgres } from '../support/test-store';

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-migrations-'));
  dirs.push(dir);
  return dir;
}

afterAll(async () => {
  await endAll();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Everything a failed migration could have touched: the schema, the migrations' record, some rows. */
async function snapshot(db: Db) {
  return {
    columns: Object.fromEntries(await schemaColumns(db)),
    recorded: (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows,
    hooks: (await sql`select * from hooks order by id`.execute(db)).rows,
    workspaces: (await sql`select * from workspaces order by id`.execute(db)).rows,
  };
}

/** A test-only migration: it changes a table, makes one, and then fails. */
const failing: Migration = {
  async up(db: Kysely<any>) {
    await withForeignKeysOff(db, (trx) => rebuildTable(trx, 'hooks', { checks: { probe: '1 = 1' } }));
    await db.schema
      .createTable('upgrade_probe')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .execute();
    await sql`insert into upgrade_probe (id) values ('half')`.execute(db);
    throw new Error('the test migration fails on purpose');
  },
};
const succeeding: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.createTable('upgrade_earlier').addColumn('id', 'text').execute();
  },
};

describe('a migration that cannot run', () => {
  let db: Db;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await openDataDir(dataDir()));
    await migrateToLatest(db);
  });
  afterAll(() => close());

  it('is refused with its name, its cause and what to do, and leaves the database exactly as it was', async () => {
    const before = await snapshot(db);
    const refused = await migrateToLatest(db, {
      ...allMigrations,
      '9998-test-succeeds': succeeding,
      '9999-test-fails': failing,
    }).catch((error: unknown) => error);

    expect(refused).toBeInstanceOf(MigrationRefused);
    expect((refused as MigrationRefused).code).toBe('migrationFailed');
    const message = (refused as Error).message;
    expect(message).toContain(
      'Database migration 9999-test-fails failed: the test migration fails on purpose.',
    );
    expect(message).toContain(
      'None of the pending migrations (9998-test-succeeds, 9999-test-fails) was kept',
    );
    expect(message).toContain('restore the backup made before upgrading');
    // Nothing of either pending migration: not the earlier one's table, not the failing one's
    // table or its rebuilt hooks, not a line in kysely_migration.
    expect(await snapshot(db)).toEqual(before);
    expect(Object.keys(before.columns)).not.toContain('upgrade_probe');
  });

  it('keeps foreign keys on for the service once migrations have run', async () => {
    if (isPostgres(db)) return;
    const on = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db);
    expect(on.rows[0]?.foreign_keys).toBe(1);
  });
});

describe('starting on a database that cannot be migrated', () => {
  let dir: string;
  let before: Awaited<ReturnType<typeof snapshot>>;

  beforeAll(async () => {
    dir = dataDir();
    const { db, close } = await openDataDir(dir);
    await migrateToLatest(db);
    // Its record of migrations lost: 0001 runs again and finds its tables there.
    await sql`delete from kysely_migration`.execute(db);
    before = await snapshot(db);
    await close();
  });

  for (const command of [
    ['serve', '--port', '0', '--host', '127.0.0.1'],
    ['workspace', 'list'],
  ])
    it(`refuses \`tessera ${command[0]}\` with a message and a non-zero exit, changing nothing`, async () => {
      const run = await runTessera([...command, '--data', dir]);
      expect(run.code).toBe(1);
      expect(run.stdout).not.toContain('Tessera is running');
      const said = JSON.parse(run.stderr.trim().split('\n').at(-1)!);
      expect(said.error).toBe('migrationFailed');
      expect(said.detail).toMatch(/^Database migration 0001-foundation failed: .*already exists/);
      expect(said.detail).toContain('Run the previous version on it, or restore the backup');
      const { db, close } = await openDataDir(dir);
      expect(await snapshot(db)).toEqual(before);
      await close();
    });
});

describe('a database made by a newer version', () => {
  let dir: string;

  beforeAll(async () => {
    dir = dataDir();
    const { db, close } = await openDataDir(dir);
    await migrateToLatest(db);
    await sql`insert into kysely_migration (name, "timestamp") values ('9999-from-the-future', '2030-01-01T00:00:00.000Z')`.execute(
      db,
    );
    await close();
  });

  it('is refused by serve and every command, naming what it does not know', async () => {
    for (const command of [
      ['serve', '--port', '0', '--host', '127.0.0.1'],
      ['workspace', 'list'],
      ['migrate'],
    ]) {
      const run = await runTessera([...command, '--data', dir]);
      expect(run.code, command[0]).toBe(1);
      const said = JSON.parse(run.stderr.trim().split('\n').at(-1)!);
      expect(said.error).toBe('databaseNewer');
      expect(said.detail).toContain(
        'made by a newer version (9999-from-the-future); run that version of Tessera or restore a backup.',
      );
    }
  });

  it('is reported by migrate --status', async () => {
    const run = await runTessera(['migrate', '--status', '--data', dir]);
    expect(run.code).toBe(0);
    const status = JSON.parse(run.stdout);
    expect(status.newer).toEqual(['9999-from-the-future']);
    expect(status.pending).toEqual([]);
    expect(status.latestApplied).toBe('9999-from-the-future');
  });
});

describe('tessera migrate', () => {
  const names = Object.keys(allMigrations).sort();
  // An older database: the last three migrations not yet run.
  const older = names.at(-4)!;
  let dir: string;

  beforeAll(async () => {
    dir = dataDir();
    const { db, close } = await openDataDir(dir);
    const migrator = new Migrator({
      db: isPostgres(db) ? db.withPlugin(postgresSchema) : db,
      provider: { getMigrations: async () => allMigrations },
    });
    expect((await migrator.migrateTo(older)).error).toBeUndefined();
    await close();
  });

  it('--status says where the database stands and changes nothing', async () => {
    for (let i = 0; i < 2; i += 1) {
      const run = await runTessera(['migrate', '--status', '--data', dir]);
      expect(run.code).toBe(0);
      const status = JSON.parse(run.stdout);
      expect(status).toEqual({
        database: onPostgres ? expect.stringMatching(/^postgres/) : join(dir, 'tessera.db'),
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        applied: names.length - 3,
        latestApplied: older,
        pending: names.slice(-3),
        newer: [],
      });
    }
  });

  it('runs the pending migrations and says which', async () => {
    const run = await runTessera(['migrate', '--data', dir]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      ran: names.slice(-3),
      applied: names.length,
      latestApplied: names.at(-1),
      pending: [],
    });
    const again = JSON.parse((await runTessera(['migrate', '--data', dir])).stdout);
    expect(again.ran).toEqual([]);
  });

  it.skipIf(onPostgres)('--status answers while another process holds the write lock', async () => {
    const writer = new SqliteDatabase(join(dir, 'tessera.db'));
    writer.exec('begin immediate');
    try {
      const started = Date.now();
      const run = await runTessera(['migrate', '--status', '--data', dir]);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout).pending).toEqual([]);
      // Not after the lock: a command waiting for it sleeps 5 s between tries, for up to 180 s. The
      // command itself takes a second or two, four times that on a loaded machine.
      expect(Date.now() - started).toBeLessThan(60_000);
    } finally {
      writer.exec('rollback');
      writer.close();
    }
  });

  it.skipIf(onPostgres)('refuses a data folder with no database, making none', async () => {
    const empty = dataDir();
    const run = await runTessera(['migrate', '--data', empty]);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stderr).detail).toContain('There is no database at');
    const status = JSON.parse((await runTessera(['migrate', '--status', '--data', empty])).stdout);
    expect(status).toMatchObject({ applied: 0, latestApplied: null, pending: names });
  });
});
