// Writes a plan into the database (inside the caller's transaction): per table, in the order the
// foreign keys need, a row not there yet is inserted, a row that differs from the file is updated,
// and a row equal to it is left alone, so a second import of the same file changes nothing. A row
// whose person erased their data stays erased: the file's copy of their details is not brought back.

import type { InsertObject } from 'kysely';
import { changingTables } from '../../db/changing-tables';
import type { Db } from '../../db/connect';
import { referencedRow } from '../../db/dialect';
import { violatedConstraint } from '../../db/errors';
import type { Database } from '../../db/schema';
import { reserveChangeSeqs } from '../../db/sequence';
import { withSavepoint } from '../platform/storage/savepoint';
import {
  bulkTables,
  type ImportIssue,
  type ImportPlan,
  type ImportTable,
  keyColumn,
  type Planned,
  type PlannedRow,
} from './plan';
import type { RowSet } from './stored-rows';

/** Tables in the order their references need (a row's parent is written before it). */
export const importTables = [
  'communities',
  'community_members',
  'events',
  'add_ons',
  'ticket_types',
  'discount_codes',
  'questions',
  'orders',
  'attendees',
  'attendee_add_ons',
  'rooms',
  'tracks',
  'speakers',
  'sessions',
  'doors',
  'sponsor_levels',
  'sponsors',
  'leads',
  'crew_members',
  'shifts',
  'shift_assignments',
  'surveys',
  'survey_responses',
  'session_ratings',
  'invoices',
  'invoice_lines',
  'budget_lines',
  'submissions',
  'submission_speakers',
  'submission_status_changes',
  'submission_reviews',
  'sharers',
  'share_links',
  'share_clicks',
  'share_registrations',
  'stays',
  'travel',
  'expense_claims',
  'certificates',
  'published_content',
  'passes',
  'pass_events',
  'pass_holders',
  'pass_opt_outs',
] as const satisfies readonly ImportTable[];

/**
 * Tables a parent owns a whole set of rows in: what names a row within its parent's set (several
 * rows may share it: two clicks in one second), and the parent row that changes with its set.
 */
const sets: Partial<
  Record<ImportTable, { identity: string[]; touches?: ImportTable; generatedId?: boolean }>
> = {
  attendee_add_ons: { identity: ['add_on_id'], touches: 'attendees' },
  shift_assignments: { identity: ['crew_member_id'], touches: 'shifts' },
  submission_status_changes: { identity: ['status', 'at_utc'], generatedId: true },
  share_clicks: { identity: ['clicked_utc'], generatedId: true },
  pass_events: { identity: ['event_id'], touches: 'passes' },
  pass_opt_outs: { identity: ['event_id'], touches: 'pass_holders' },
};

const changing = new Set<string>(changingTables);
const chunk = 500;
/** Orders written at a time (with their tickets): what the writer holds at once. */
export const ordersPerBatch = 5000;

export interface TableChanges {
  created: string[];
  /** Updated rows with what they were before. */
  updated: { id: string; before: PlannedRow }[];
  unchanged: number;
  /** Rows left as they are because their person erased their data. */
  keptErased: number;
}

export interface SetChanges {
  added: PlannedRow[];
  removed: PlannedRow[];
}

export interface WriteReport {
  tables: Map<ImportTable, TableChanges>;
  sets: Map<ImportTable, SetChanges>;
}

export class ImportRefused extends Error {
  constructor(readonly issues: ImportIssue[]) {
    super(`The file was not imported: ${issues.length} problem(s).`);
  }
}

const same = (a: unknown, b: unknown) => a === b || (a == null && b == null);

export async function writePlan(db: Db, plan: ImportPlan, now: string): Promise<WriteReport> {
  const report: WriteReport = { tables: new Map(), sets: new Map() };
  for (const table of importTables) {
    if (table === 'orders') await writeBulk(db, plan, now, report);
    if (bulkTables.has(table)) continue;
    if (sets[table]) {
      const set = plan.sets.get(table);
      if (set) report.sets.set(table, await writeSet(db, table, set, now));
      continue;
    }
    const rows = plan.rows(table);
    if (rows.length > 0) report.tables.set(table, await writeTable(db, table, rows, now));
  }
  return report;
}

/**
 * The orders with their tickets and the tickets' add-ons, as the plan kept them, taken back and
 * written a batch at a time, each table of a batch in the order the references need.
 */
async function writeBulk(db: Db, plan: ImportPlan, now: string, report: WriteReport): Promise<void> {
  for (const batch of plan.bulkRows.batches(ordersPerBatch))
    for (const table of importTables) {
      if (!bulkTables.has(table)) continue;
      if (sets[table]) {
        const set = batch.sets.get(table);
        if (set) addSetChanges(report, table, await writeSet(db, table, set, now));
        continue;
      }
      const rows = batch.tables.get(table);
      if (rows) addTableChanges(report, table, await writeTable(db, table, rows, now));
    }
}

function addTableChanges(report: WriteReport, table: ImportTable, batch: TableChanges): void {
  const changes = report.tables.get(table);
  if (!changes) return void report.tables.set(table, batch);
  for (const id of batch.created) changes.created.push(id);
  for (const update of batch.updated) changes.updated.push(update);
  changes.unchanged += batch.unchanged;
  changes.keptErased += batch.keptErased;
}

function addSetChanges(report: WriteReport, table: ImportTable, batch: SetChanges): void {
  const changes = report.sets.get(table);
  if (!changes) return void report.sets.set(table, batch);
  for (const row of batch.added) changes.added.push(row);
  for (const row of batch.removed) changes.removed.push(row);
}

/**
 * The stored rows the file names. Rows of the tables other rows name (an event, a ticket type, a
 * room: every table but the bulk ones) are held as a write holds what it names (FOR KEY SHARE on
 * PostgreSQL): a file's question naming a ticket type it leaves as it is must not meet that ticket
 * type's removal, which counts the questions naming it before it goes.
 */
async function existingRows(
  db: Db,
  table: ImportTable,
  column: string,
  values: string[],
): Promise<PlannedRow[]> {
  const found: PlannedRow[] = [];
  for (let i = 0; i < values.length; i += chunk) {
    const query = db
      .selectFrom(table)
      .selectAll()
      // biome-ignore lint/suspicious/noExplicitAny: the column is one of this table's, named by the plan.
      .where(column as any, 'in', values.slice(i, i + chunk));
    const rows = await (bulkTables.has(table) ? query : referencedRow(db, query)).execute();
    found.push(...(rows as PlannedRow[]));
  }
  return found;
}

async function writeTable(
  db: Db,
  table: ImportTable,
  planned: Planned[],
  now: string,
): Promise<TableChanges> {
  const key = keyColumn(table);
  const before = new Map(
    (
      await existingRows(
        db,
        table,
        key,
        planned.map((p) => String(p.row[key])),
      )
    ).map((r) => [String(r[key]), r]),
  );
  const changes: TableChanges = { created: [], updated: [], unchanged: 0, keptErased: 0 };
  const fresh: Planned[] = [];
  const changed: { planned: Planned; before: PlannedRow }[] = [];
  for (const p of planned) {
    const current = before.get(String(p.row[key]));
    if (!current) fresh.push(p);
    else if (current.erased === 1) changes.keptErased++;
    else if (Object.entries(p.row).some(([column, value]) => !same(current[column], value)))
      changed.push({ planned: p, before: current });
    else changes.unchanged++;
  }
  const stamped = changing.has(table);
  const first = stamped ? await reserveChangeSeqs(db, fresh.length + changed.length) : 0;
  // Each batch's rows are made as it is written, not all at once (a large file's memory).
  await insertRows(db, table, fresh, (p, i) => ({
    ...(stamped ? { created_utc: now, updated_utc: now, change_seq: first + i } : {}),
    ...p.insertOnly,
    ...p.row,
  }));
  let seq = first + fresh.length;
  changes.created = fresh.map((p) => String(p.row[key]));
  for (const { planned: p, before: current } of changed) {
    const id = String(p.row[key]);
    try {
      await db
        .updateTable(table)
        .set({ ...p.row, ...(stamped ? { updated_utc: now, change_seq: seq++ } : {}) })
        // biome-ignore lint/suspicious/noExplicitAny: the key column of this table.
        .where(key as any, '=', id)
        .execute();
    } catch (error) {
      throw refusal(error, p.path);
    }
    changes.updated.push({ id, before: current });
  }
  return changes;
}

/**
 * Inserts the rows `rowOf` makes of `items`, in batches; when a batch breaks a rule of the schema,
 * finds the row that did, by its item's path.
 */
async function insertRows<T extends { path: string }>(
  db: Db,
  table: ImportTable,
  items: T[],
  rowOf: (item: T, index: number) => PlannedRow,
) {
  if (items.length === 0) return;
  const columns = Object.keys(rowOf(items[0]!, 0)).length;
  const size = Math.max(1, Math.floor(30_000 / columns));
  for (let i = 0; i < items.length; i += size) {
    const batch = items.slice(i, i + size).map((item, j) => rowOf(item, i + j));
    try {
      // In a savepoint: on PostgreSQL a failed statement would otherwise end the whole transaction.
      await withSavepoint(db, () => db.insertInto(table).values(insertable(batch)).execute());
    } catch (error) {
      if (!violatedConstraint(error)) throw error;
      // The failed statement changed nothing: insert its rows one by one to name the one at fault.
      for (let j = 0; j < batch.length; j++) {
        try {
          await db
            .insertInto(table)
            .values(insertable([batch[j]!]))
            .execute();
        } catch (single) {
          throw refusal(single, items[i + j]!.path);
        }
      }
      throw error;
    }
  }
}

/**
 * Planned rows as their table's insert takes them. The plan's rows are not typed by table: each is
 * built by its table's section from the file, with the columns of that table, and what the file got
 * wrong is refused by the database's own constraints (refusal names the row at fault).
 */
function insertable(rows: PlannedRow[]): InsertObject<Database, ImportTable>[] {
  return rows as InsertObject<Database, ImportTable>[];
}

function refusal(error: unknown, path: string): unknown {
  const rule = violatedConstraint(error);
  if (rule === null) return error;
  return new ImportRefused([
    { path, message: `It conflicts with what the workspace already holds (${rule}).` },
  ]);
}

async function writeSet(db: Db, table: ImportTable, planned: RowSet, now: string): Promise<SetChanges> {
  const { identity, touches, generatedId } = sets[table]!;
  const { parentColumn, byParent } = planned;
  const existing = await existingRows(db, table, parentColumn, [...byParent.keys()]);
  const identityOf = (row: PlannedRow) => JSON.stringify([row[parentColumn], ...identity.map((c) => row[c])]);
  const pool = new Map<string, PlannedRow[]>();
  for (const row of existing) pool.set(identityOf(row), [...(pool.get(identityOf(row)) ?? []), row]);
  const changes: SetChanges = { added: [], removed: [] };
  const replaced: PlannedRow[] = [];
  const inserts: PlannedRow[] = [];
  for (const rows of byParent.values())
    for (const row of rows) {
      const match = pool.get(identityOf(row))?.shift();
      if (!match) {
        changes.added.push(row);
        inserts.push(row);
      } else if (Object.entries(row).some(([c, v]) => !same(match[c], v))) {
        replaced.push(match);
        inserts.push(row);
      }
    }
  for (const rows of pool.values()) changes.removed.push(...rows);
  for (const row of [...changes.removed, ...replaced]) {
    let remove = db.deleteFrom(table);
    const columns = generatedId ? ['id'] : [parentColumn, ...identity];
    // biome-ignore lint/suspicious/noExplicitAny: columns of this table.
    for (const c of columns) remove = remove.where(c as any, '=', row[c]);
    await remove.execute();
  }
  await insertRows(
    db,
    table,
    inserts.map((row) => ({ row, path: table })),
    (item) => item.row,
  );
  if (touches) {
    const parents = [...new Set([...inserts, ...changes.removed].map((r) => String(r[parentColumn])))];
    let seq = await reserveChangeSeqs(db, parents.length);
    for (const id of parents)
      await db
        .updateTable(touches)
        .set({ updated_utc: now, change_seq: seq++ })
        .where('id', '=', id)
        .execute();
  }
  return changes;
}
