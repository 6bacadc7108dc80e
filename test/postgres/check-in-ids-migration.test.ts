// Migration 0045 on a database that already holds door scans whose ids and change_txn disagree (a
// scan that began first took the higher id): each gets the largest change_txn of the scans up to
// its id, so the list is in id order, and the ids and change_txn handed out next continue above them.
// The trigger's turn (a session-level advisory lock) is let go when an insert fails inside it.
// PostgreSQL only (`npm run test:postgres`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../../db/connect';
import { postgresSchema } from '../../db/dialect';
import { migrationProvider } from '../../db/migrations';
import { databaseFor, onPostgres } from '../support/test-store';

const dir = mkdtempSync(join(tmpdir(), 'tessera-check-in-ids-'));
let opened: { db: Db; close(): Promise<void> } | undefined;
afterAll(async () => {
  await opened?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!onPostgres)('upgrading door scans (0045, PostgreSQL)', () => {
  it('puts the scans already there in id order and goes on numbering above them', async () => {
    opened = openDatabase((await databaseFor(dir))!);
    const { db } = opened;
    expect(
      (
        await new Migrator({ db: db.withPlugin(postgresSchema), provider: migrationProvider }).migrateTo(
          '0044-search-pairs-unsorted',
        )
      ).error,
    ).toBeUndefined();
    const far = 1_000_000_000;
    // Only the scans matter here: their events, people and doors are left out (this database's
    // scans refer to none).
    await sql`do $$ declare c record; begin
      for c in select conname from pg_constraint where conrelid = 'check_ins'::regclass and contype = 'f' loop
        execute format('alter table check_ins drop constraint %I', c.conname);
      end loop; end $$`.execute(db);
    await sql`insert into check_ins (workspace_id, event_id, attendee_id, door_id, direction, result, admitted,
          scanned_utc, recorded_utc, change_txn)
        values ('w', 'e', 'a1', 'd', 'in', 'welcome', 1, '2026-05-01T10:00:00.000Z', '2026-05-01T10:00:00.000Z', 500),
          ('w', 'e', 'a2', 'd', 'in', 'welcome', 1, '2026-05-01T10:00:01.000Z', '2026-05-01T10:00:01.000Z', 400),
          ('w', 'e', 'a3', 'd', 'in', 'welcome', 1, '2026-05-01T10:00:02.000Z', '2026-05-01T10:00:02.000Z', ${far})`.execute(
      db,
    );

    await migrateToLatest(db);

    const rows = async () =>
      (
        await sql<{
          id: string;
          change_txn: string;
        }>`select id, change_txn from check_ins order by id`.execute(db)
      ).rows.map((r) => [Number(r.id), Number(r.change_txn)]);
    expect(await rows()).toEqual([
      [1, 500],
      [2, 500],
      [3, far],
    ]);

    await db.transaction().execute(async (trx) => {
      await sql`insert into check_ins (workspace_id, event_id, attendee_id, door_id, direction, result, admitted,
          scanned_utc, recorded_utc)
        values ('w', 'e', 'a4', 'd', 'out', 'out', 0, '2026-05-01T10:00:03.000Z', '2026-05-01T10:00:03.000Z')`.execute(
        trx,
      );
      // A restore's own ids are kept.
      await sql`insert into check_ins (id, workspace_id, event_id, attendee_id, door_id, direction, result, admitted,
          scanned_utc, recorded_utc)
        values (90, 'w', 'e', 'a5', 'd', 'out', 'out', 0, '2026-05-01T10:00:04.000Z', '2026-05-01T10:00:04.000Z')`.execute(
        trx,
      );
    });
    expect((await rows()).slice(3)).toEqual([
      [4, far],
      [90, far],
    ]);
  });

  it('lets the turn go when an insert fails inside it, so the next scan is not kept waiting', async () => {
    const { db } = opened!;
    const insert = (attendee: string) =>
      sql`insert into check_ins (workspace_id, event_id, attendee_id, door_id, direction, result, admitted,
          scanned_utc, recorded_utc)
        values ('w', 'e', ${attendee}, 'd', 'out', 'out', 0, '2026-05-01T10:00:05.000Z', '2026-05-01T10:00:05.000Z')`;
    const advisoryLocks = async () =>
      (
        await sql<{ n: number }>`select count(*)::int as n from pg_locks
        where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`.execute(
          db,
        )
      ).rows[0]!.n;
    // The next id is past the sequence's end: taking it fails between the turn's lock and its release.
    await sql`alter sequence check_ins_id_seq maxvalue 4`.execute(db);
    // One connection, so the session that failed is the one asked next.
    await db.connection().execute(async (one) => {
      await expect(insert('a6').execute(one)).rejects.toThrow(/maximum value/);
      expect(await advisoryLocks()).toBe(0);
      await sql`alter sequence check_ins_id_seq no maxvalue`.execute(one);
      await insert('a7').execute(one);
    });
  });
});
