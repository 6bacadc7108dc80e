// The first start constant in the data's size (issue 29): making the demonstration workspace never
// reads a whole table of those that grow with the attendees (every statement on them is served by an
// index), so a deployment's own large event does not slow its first start down.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompiledQuery, type LogEvent, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoWorkspace } from '../../core/admin/demo-workspace';
import { systemClock } from '../../core/platform/clock';
import { migrateToLatest, type OpenedDatabase, openDatabase } from '../../db/connect';
import { databaseFor, onPostgres } from '../support/test-store';

let opened: OpenedDatabase;
const statements: CompiledQuery[] = [];

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-demo-start-'));
  const location = (await databaseFor(dataDir)) ?? join(dataDir, 'tessera.db');
  opened = openDatabase(location, {
    queryLog: (event: LogEvent) => {
      statements.push(event.query);
    },
  });
  await migrateToLatest(opened.db);
  statements.length = 0;
  await ensureDemoWorkspace(opened.db, systemClock);
});
afterAll(async () => opened.close());

/** The tables a statement reads whole (every row, through an index of it or not). */
async function tablesReadWhole(query: CompiledQuery): Promise<string[]> {
  const db = opened.db;
  if (!onPostgres) {
    const steps = await db.executeQuery(
      CompiledQuery.raw(`EXPLAIN QUERY PLAN ${query.sql}`, [...query.parameters]),
    );
    // "SCAN t" reads every row of t; "SEARCH t USING INDEX" a range of it.
    return (steps.rows as { detail: string }[]).flatMap((r) => /^SCAN (\w+)/.exec(r.detail)?.[1] ?? []);
  }
  // Small tables are cheaper to read whole; with that off, the plan reads one whole only where no
  // index can serve: a Seq Scan, or an index walked end to end (no Index Cond).
  const plan = await db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const steps = await trx.executeQuery(
      CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${query.sql}`, [...query.parameters]),
    );
    const cell = (steps.rows[0] as Record<string, unknown>)['QUERY PLAN'];
    return (typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan: PlanNode }[];
  });
  const whole: string[] = [];
  const visit = (node: PlanNode) => {
    const type = node['Node Type'];
    const walked = /^Index (Only )?Scan$/.test(type) && node['Index Cond'] === undefined;
    if (type === 'Seq Scan' || walked) whole.push(node['Relation Name']!);
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(plan[0]!.Plan);
  return whole;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** Tables whose rows grow with an event's attendees. */
const growing = [
  'attendees',
  'orders',
  'attendee_add_ons',
  'check_ins',
  'certificates',
  'mail_messages',
  'leads',
  'invoices',
  'invoice_lines',
  'survey_responses',
  'session_ratings',
  'share_registrations',
  'outbox',
  'deliveries',
];

describe('the demonstration workspace at first start', () => {
  it('reads no whole table that grows with the attendees: an index serves each statement', async () => {
    const reads = statements.filter((q) => /^\s*(select|update|delete|with)\b/i.test(q.sql));
    expect(reads.length).toBeGreaterThan(100);
    const whole: string[] = [];
    for (const query of reads) {
      const tables = (await tablesReadWhole(query)).filter((table) => growing.includes(table));
      if (tables.length > 0) whole.push(`${tables.join(', ')}: ${query.sql.slice(0, 200)}`);
    }
    expect(whole).toEqual([]);
  });
});
