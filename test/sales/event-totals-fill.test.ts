// Migration 0033 fills the totals of the rows a database already holds (the v0.1.0 fixture, with
// tickets, orders and scans in many states), and the summary's last-hour read goes through the
// index check_ins_event_scanned, bounded to that hour's scans, on both stores.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { recentAdmissions } from '../../core/checkin/recent-admissions';
import { type Db, migrateToLatest, openDatabase } from '../../db/connect';
import { isPostgres } from '../../db/dialect';
import { startTestServer } from '../support/server';
import { onPostgres } from '../support/test-store';

/** Each total as the rows count it, and as the totals tables hold it (slots summed, zeros left out). */
async function totalsAndRows(db: Db) {
  const q = async (text: string) =>
    (await sql.raw(text).execute(db)).rows
      .map((r) =>
        JSON.stringify(Object.values(r as object).map((v) => (/^-?\d+$/.test(String(v)) ? Number(v) : v))),
      )
      .sort();
  const checked = 'CASE WHEN a.checked_in_utc IS NULL THEN 0 ELSE 1 END';
  return {
    rows: {
      tickets:
        await q(`SELECT a.event_id, a.status AS attendee_status, o.status AS order_status, t.crew, ${checked} AS checked_in, COUNT(*) AS n FROM attendees a
        JOIN orders o ON o.id = a.order_id JOIN ticket_types t ON t.id = a.ticket_type_id
        GROUP BY a.event_id, a.status, o.status, t.crew, ${checked}`),
      orders: await q(
        'SELECT event_id, status, COUNT(*) AS n, SUM(total_minor) AS total FROM orders GROUP BY event_id, status',
      ),
      doors: await q(`SELECT d.id, (SELECT COUNT(*) FROM door_presence p WHERE p.door_id = d.id) AS admitted,
        (SELECT COUNT(*) FROM check_ins c WHERE c.door_id = d.id AND c.admitted = 0 AND c.direction = 'in') AS refused FROM doors d`),
    },
    totals: {
      tickets:
        await q(`SELECT event_id, attendee_status, order_status, crew, checked_in, SUM(n) AS n FROM ticket_totals
        GROUP BY event_id, attendee_status, order_status, crew, checked_in HAVING SUM(n) <> 0`),
      orders: await q(
        'SELECT event_id, status, SUM(n) AS n, SUM(total_minor) AS total FROM order_totals GROUP BY event_id, status HAVING SUM(n) <> 0',
      ),
      doors:
        await q(`SELECT d.id, COALESCE(SUM(x.admitted), 0) AS admitted, COALESCE(SUM(x.refused), 0) AS refused FROM doors d
        LEFT JOIN door_totals x ON x.door_id = d.id GROUP BY d.id`),
    },
  };
}

describe.skipIf(onPostgres)('a database of v0.1.0 upgraded', () => {
  it('has totals equal to its rows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-totals-fill-'));
    try {
      const file = join(dir, 'tessera.db');
      const fixture = join(import.meta.dirname, '..', 'fixtures', 'upgrade', 'v0.1.0', 'tessera.db.gz');
      writeFileSync(file, gunzipSync(readFileSync(fixture)));
      const { db, close } = openDatabase(file);
      try {
        await migrateToLatest(db);
        const { rows, totals } = await totalsAndRows(db);
        expect(rows.tickets.length).toBeGreaterThan(3);
        expect(rows.doors.some((d) => !d.endsWith(',0,0]'))).toBe(true);
        expect(totals).toEqual(rows);
      } finally {
        await close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

class RolledBack extends Error {}

describe('the last hour of the check-in summary', () => {
  it('is read through the index on (event_id, scanned_utc)', async () => {
    const t = await startTestServer();
    try {
      const db = t.server.services.db;
      const query = recentAdmissions(db, 'event', '2030-01-01T00:00:00.000Z').compile();
      let plan = '';
      await db
        .transaction()
        .execute(async (trx) => {
          if (!isPostgres(db)) {
            plan = JSON.stringify(
              (await trx.executeQuery({ ...query, sql: `EXPLAIN QUERY PLAN ${query.sql}` } as never)).rows,
            );
            return;
          }
          // On a near-empty table every index led by event_id costs the same and the planner's pick
          // is arbitrary (CI once chose check_ins_event_recorded). Set the others aside in this
          // rolled-back transaction, and forbid the whole-table scan, to ask whether this index
          // serves both the event and the hour.
          const others = await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes
            WHERE tablename = 'check_ins' AND indexname <> 'check_ins_event_scanned'
              AND indexdef LIKE '%(event_id%'`.execute(trx);
          for (const { indexname } of others.rows) await sql`DROP INDEX ${sql.id(indexname)}`.execute(trx);
          await sql`SET LOCAL enable_seqscan = off`.execute(trx);
          const explained = await trx.executeQuery({ ...query, sql: `EXPLAIN ${query.sql}` } as never);
          plan = JSON.stringify(explained.rows);
          throw new RolledBack();
        })
        .catch((e) => {
          if (!(e instanceof RolledBack)) throw e;
        });
      if (isPostgres(db))
        expect(plan).toMatch(/Index Cond: \(\(event_id = 'event'::text\) AND \(scanned_utc >= /);
      expect(plan).toContain('check_ins_event_scanned');
    } finally {
      await t.close();
    }
  });
});
