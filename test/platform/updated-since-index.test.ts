// updatedSince through an index (issue 29): every list that pages oldest change first ranges over
// its change index from the first row changed since the moment, found through the (scope,
// last-change time) index, instead of walking every older row; and the answers stay those of
// filtering every row, also when the clock stepped back between two changes.
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan, type PagePlan } from '../../core/platform/pipeline/paging';
import { feedPlaces } from '../../db/sequence';
import { eventBody } from '../support/fixtures';
import { MutableClock, startTestServer, type TestServer } from '../support/server';
import { onPostgres } from '../support/test-store';

let t: TestServer;
const clock = new MutableClock();

beforeAll(async () => {
  t = await startTestServer({ clock });
});
afterAll(async () => t.close());

/** Every list the paging rule serves: table, its scope columns, change index, position and time columns. */
const lists: [table: string, scope: string[], changeIndex: string, seq: string, updated: string][] = [
  ['events', ['workspace_id'], 'events_workspace_change', 'change_seq', 'updated_utc'],
  ['ticket_types', ['event_id'], 'ticket_types_event_change', 'change_seq', 'updated_utc'],
  ['add_ons', ['event_id'], 'add_ons_event_change', 'change_seq', 'updated_utc'],
  ['discount_codes', ['event_id'], 'discount_codes_event_change', 'change_seq', 'updated_utc'],
  ['orders', ['event_id'], 'orders_event_change', 'change_seq', 'updated_utc'],
  ['attendees', ['event_id'], 'attendees_event_change', 'change_seq', 'updated_utc'],
  ['rooms', ['event_id'], 'rooms_event_change', 'change_seq', 'updated_utc'],
  ['tracks', ['event_id'], 'tracks_event_change', 'change_seq', 'updated_utc'],
  ['speakers', ['event_id'], 'speakers_event_change', 'change_seq', 'updated_utc'],
  ['sessions', ['event_id'], 'sessions_event_change', 'change_seq', 'updated_utc'],
  ['passes', ['workspace_id'], 'passes_workspace_change', 'change_seq', 'updated_utc'],
  ['pass_holders', ['pass_id'], 'pass_holders_pass_change', 'change_seq', 'updated_utc'],
  ['communities', ['workspace_id'], 'communities_workspace', 'change_seq', 'updated_utc'],
  ['community_members', ['community_id'], 'community_members_list', 'change_seq', 'updated_utc'],
  ['crew_members', ['event_id'], 'crew_members_list', 'change_seq', 'updated_utc'],
  ['surveys', ['event_id'], 'surveys_event', 'change_seq', 'updated_utc'],
  ['budget_lines', ['event_id'], 'budget_lines_event', 'change_seq', 'updated_utc'],
  ['submissions', ['event_id'], 'submissions_event_change', 'change_seq', 'updated_utc'],
  [
    'submission_reviews',
    ['submission_id'],
    'submission_reviews_submission_change',
    'change_seq',
    'updated_utc',
  ],
  ['share_links', ['event_id'], 'share_links_event_change', 'change_seq', 'updated_utc'],
  ['stays', ['event_id'], 'stays_event_change', 'change_seq', 'updated_utc'],
  ['travel', ['event_id'], 'travel_event_change', 'change_seq', 'updated_utc'],
  ['expense_claims', ['event_id'], 'expense_claims_event_change', 'change_seq', 'updated_utc'],
  ['mail_messages', ['event_id'], 'mail_messages_event_change', 'change_seq', 'updated_utc'],
  ['check_ins', ['event_id'], 'check_ins_event_id', 'id', 'recorded_utc'],
  ['deliveries', ['target_kind', 'target_id'], 'deliveries_target', 'id', 'updated_utc'],
];

/** A first page of what changed since `since`, or with `after`, a later page. */
function pageSince(since: string, after: [number, number] | null): PagePlan {
  return {
    list: 'plan',
    filterHash: 'plan',
    limit: 100,
    sort: 'changed',
    updatedSince: since,
    after,
    offset: 0,
    legacyPage: null,
    settledOnly: onPostgres,
    places: feedPlaces(t.server.services.db),
  };
}

/** The plan the store makes for a page of the list since a moment, one line a step. */
async function planOf(
  table: string,
  scope: string[],
  seq: string,
  updated: string,
  after: [number, number] | null = null,
): Promise<string> {
  const db = t.server.services.db as any;
  let query = db.selectFrom(table).selectAll();
  for (const column of scope) query = query.where(`${table}.${column}`, '=', 'x');
  const compiled = applyPlan(query, pageSince('2026-11-01T00:00:00.000Z', after), {
    txn: `${table}.change_txn`,
    seq: `${table}.${seq}`,
    updated: `${table}.${updated}`,
    created: `${table}.created_utc`,
    id: `${table}.id`,
  }).compile();
  if (!onPostgres) {
    const steps = await db.executeQuery(
      CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, compiled.parameters),
    );
    return steps.rows.map((r: { detail: string }) => r.detail).join('\n');
  }
  // Tables of a few rows are cheaper to read whole; the rule here is which index a plan ranges over.
  return db.transaction().execute(async (trx: any) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const steps = await trx.executeQuery(CompiledQuery.raw(`EXPLAIN ${compiled.sql}`, compiled.parameters));
    return steps.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
  });
}

describe('updatedSince', () => {
  it.each(lists)(
    'reads %s from the first change since the moment, through indexes only',
    async (table, scope, changeIndex, seq, updated) => {
      const plan = await planOf(table, scope, seq, updated);
      const updatedIndex = new RegExp(`${table}_\\w+_(updated|recorded)\\b`);
      if (onPostgres) {
        expect(plan, plan).toMatch(
          new RegExp(
            `Index Scan using ${changeIndex} on ${table}[^\\n]*\\n\\s+Index Cond: .*ROW\\(change_txn, ${seq}\\) >= ROW`,
          ),
        );
        expect(plan, plan).toMatch(
          new RegExp(
            `Index (Only )?Scan using ${updatedIndex.source}|Bitmap Index Scan on ${updatedIndex.source}`,
          ),
        );
        expect(plan, plan).not.toMatch(/Seq Scan/);
      } else {
        const range = scope.map((c) => `${c}=\\?`).join(' AND ');
        // The position alone beside change_txn (always 0 on SQLite), also where it is the rowid.
        const position = `change_txn=\\? AND ${seq}>\\?`;
        expect(plan, plan).toMatch(
          new RegExp(`SEARCH ${table} USING INDEX ${changeIndex} \\(${range} AND ${position}\\)`),
        );
        expect(plan, plan).toMatch(
          new RegExp(
            `SEARCH ${table} USING (COVERING )?INDEX ${updatedIndex.source} \\(${range} AND ${updated}>\\?\\)`,
          ),
        );
        expect(plan, plan).not.toMatch(/^SCAN/m);
      }
    },
  );

  it.each(lists)(
    'reads a later page of %s from its cursor through the change index',
    async (table, scope, changeIndex, seq, updated) => {
      const plan = await planOf(table, scope, seq, updated, [0, 12]);
      if (onPostgres) {
        expect(plan, plan).toMatch(
          new RegExp(
            `Index Scan using ${changeIndex} on ${table}[^\\n]*\\n\\s+Index Cond: .*ROW\\(change_txn, ${seq}\\) > ROW`,
          ),
        );
        expect(plan, plan).not.toMatch(/Seq Scan/);
      } else {
        const range = scope.map((c) => `${c}=\\?`).join(' AND ');
        expect(plan, plan).toMatch(
          new RegExp(
            `SEARCH ${table} USING INDEX ${changeIndex} \\(${range} AND change_txn=\\? AND ${seq}>\\?\\)`,
          ),
        );
        expect(plan, plan).not.toMatch(/^SCAN/m);
      }
    },
  );

  it('answers what filtering every row answers, also after the clock stepped back', async () => {
    const { workspaceId } = await t.workspace('Since workspace');
    const { key: reader } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' });
    const { key: writer } = await t.key({ workspaceId, scopes: ['events:write'], expires: 'never' });
    const made: { eventId: string; updatedUtc: string }[] = [];
    // Later changes with earlier times: the first row changed since a moment is not the first in time.
    for (const step of [0, 60_000, -120_000, 30_000, -10_000, 90_000]) {
      clock.advance(step);
      const res = await t.api('/events', { key: writer, method: 'POST', body: eventBody() });
      expect(res.status).toBe(201);
      made.push(res.body);
    }
    const all = await t.api('/events?limit=500', { key: reader });
    for (const { updatedUtc: since } of made) {
      const expected = all.body.data
        .filter((e: { updatedUtc: string }) => e.updatedUtc >= since)
        .map((e: { eventId: string }) => e.eventId);
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const res: any = await t.api(
          `/events?limit=2&updatedSince=${encodeURIComponent(since)}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          { key: reader },
        );
        expect(res.status).toBe(200);
        ids.push(...res.body.data.map((e: { eventId: string }) => e.eventId));
        cursor = res.body.nextCursor;
      } while (cursor);
      expect(ids, since).toEqual(expected);
      expect(ids.length).toBeGreaterThan(0);
    }
  });
});
