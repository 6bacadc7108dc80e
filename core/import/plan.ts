// What an import file becomes before anything is written: the rows of each table, each with the
// path of the item it came from (so a refusal names it), and every problem found on the way. Ids are
// derived from the workspace and the file's own keys (UUID v5), so importing the same file again
// finds the same rows instead of making new ones.
import { v5 as uuidV5 } from 'uuid';
import { fitsCurrency, toMinor } from '../platform/money';
import { parseInstant } from '../platform/time';
import type { ImportTable, Planned, PlannedRow } from './planned-rows';
import { StoredRows } from './stored-rows';

export type { ImportTable, Planned, PlannedRow } from './planned-rows';

export interface ImportIssue {
  /** Where in the file, as a JSON path: events[0].orders[3].attendees[1].ticketType. */
  path: string;
  message: string;
}

/** Rows planned for one table. */
type TableRows = Map<string, Planned>;

/** The entry of a map, made first when there is none. */
function entryOf<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/**
 * Tables whose rows are many (orders, their tickets and the tickets' add-ons): the plan keeps them
 * compressed (StoredRows), and the writer takes them back in batches.
 */
export const bulkTables: ReadonlySet<ImportTable> = new Set<ImportTable>([
  'orders',
  'attendees',
  'attendee_add_ons',
]);

/** Plans a section's many rows, pausing after each item (an order with its tickets). */
export type BulkJob = Iterable<void>;

/** The column that names a row of a table (its primary key). */
export function keyColumn(table: ImportTable): string {
  return table === 'share_registrations' ? 'attendee_id' : 'id';
}

export class ImportPlan {
  readonly issues: ImportIssue[] = [];
  readonly tables = new Map<ImportTable, TableRows>();
  readonly sets = new Map<ImportTable, { parentColumn: string; byParent: Map<string, PlannedRow[]> }>();
  /** Keys already seen, by kind and scope: a key names one item of its kind. */
  private readonly keys = new Map<string, Map<string, string>>();
  /** Items whose key another item of theirs has: refused once, on the key. */
  private readonly duplicates = new Set<string>();
  /** References, checked once every key of the file is known (an item may refer to a later one). */
  private readonly references: { name: string; key: string; path: string; what: string }[] = [];
  /** The rows of the bulk tables, made once. */
  readonly bulkRows = new StoredRows();

  constructor(readonly workspaceId: string) {}

  /** The id of the item of this kind with this key (within its scope: an event, a community). */
  id(kind: string, scope: string, key: string): string {
    return uuidV5(`tessera-import/${kind}/${scope}/${key}`, this.workspaceId);
  }

  /** The ids of items referred to, made once: many rows refer to a few (tickets to their type). */
  private readonly referred = new Map<string, string>();

  private referredId(kind: string, scope: string, key: string): string {
    const name = `${kind}/${scope}/${key}`;
    return entryOf(this.referred, name, () => this.id(kind, scope, key));
  }

  /** Records an item's key; a second item of the same kind and key in one scope is refused. */
  claim(kind: string, scope: string, key: string, path: string): string {
    const name = `${kind}/${scope}`;
    const seen = entryOf(this.keys, name, () => new Map<string, string>());
    const first = seen.get(key);
    if (first !== undefined) {
      this.issue(`${path}.key`, `The key "${key}" is already used by ${first}.`);
      this.duplicates.add(path);
    } else seen.set(key, path);
    return this.id(kind, scope, key);
  }

  /** The id of an item the file refers to by key; refuses a key no item of that kind has. */
  ref(kind: string, scope: string, key: string, path: string, what: string): string {
    const name = `${kind}/${scope}`;
    // Kept to check at the end only when its item is not known yet (it may come later).
    if (!this.keys.get(name)?.has(key)) this.references.push({ name, key, path, what });
    return this.referredId(kind, scope, key);
  }

  /** Whether an item of this kind has this key (every key of the file is claimed by then). */
  has(kind: string, scope: string, key: string): boolean {
    return this.keys.get(`${kind}/${scope}`)?.has(key) === true;
  }

  /** Checks the references once the whole file is read. */
  checkReferences(): void {
    for (const r of this.references)
      if (!this.keys.get(r.name)?.has(r.key))
        this.issue(r.path, `No ${r.what} has the key "${r.key}" in this file.`);
  }

  refOrNull(kind: string, scope: string, key: string | null, path: string, what: string): string | null {
    return key === null ? null : this.ref(kind, scope, key, path, what);
  }

  /** Runs a section's planning of many rows, keeping each item's rows together. */
  bulk(job: BulkJob): void {
    for (const _ of job) this.bulkRows.endItem();
    this.bulkRows.endItem();
  }

  /** Lets go of what only the check needed (the keys and references seen), before the writing. */
  releaseChecks(): void {
    this.keys.clear();
    this.references.length = 0;
    this.referred.clear();
    this.duplicates.clear();
  }

  add(table: ImportTable, row: PlannedRow, path: string, insertOnly?: PlannedRow): void {
    // A bulk table's row has the id of a key claimed for it: claim has refused a second one already.
    if (bulkTables.has(table)) this.bulkRows.add(table, row, path, insertOnly);
    else this.keep(table, row, path, insertOnly);
  }

  private keep(table: ImportTable, row: PlannedRow, path: string, insertOnly?: PlannedRow): void {
    const rows = entryOf(this.tables, table, (): TableRows => new Map());
    const id = String(row[keyColumn(table)]);
    const first = rows.get(id);
    if (first) {
      if (!this.duplicates.has(path)) this.issue(path, `The same as ${first.path}: one of them is too many.`);
    } else rows.set(id, { row, path, insertOnly });
  }

  rows(table: ImportTable): Planned[] {
    return [...(this.tables.get(table)?.values() ?? [])];
  }

  /**
   * The whole set of rows a parent has in a table without ids of its own (an attendee's add-ons, a
   * shift's crew): the writer adds what is missing and removes what the file no longer has.
   */
  setOf(table: ImportTable, parentColumn: string, parentId: string, rows: PlannedRow[]): void {
    if (bulkTables.has(table)) this.bulkRows.addSet(table, parentColumn, parentId, rows);
    else {
      const set = entryOf(this.sets, table, () => ({
        parentColumn,
        byParent: new Map<string, PlannedRow[]>(),
      }));
      set.byParent.set(parentId, rows);
    }
  }

  issue(path: string, message: string): void {
    this.issues.push({ path, message });
  }

  /** An instant as stored (UTC, milliseconds), or null with an issue when it is not one. */
  utc(value: string, path: string): string {
    const parsed = parseInstant(value);
    if (parsed === null) this.issue(path, 'Not an ISO 8601 date-time with a zone or offset.');
    return parsed ?? value;
  }

  utcOrNull(value: string | null, path: string): string | null {
    return value === null ? null : this.utc(value, path);
  }

  /** An amount in the currency's own decimals, in minor units; refuses more decimals than it has. */
  minor(amount: number, currency: string, path: string): number {
    if (!fitsCurrency(amount, currency))
      this.issue(path, `${amount} has more decimals than ${currency} has.`);
    return toMinor(amount, currency);
  }

  /**
   * A period's start and end instants as stored (null where absent), each checked at its field of
   * `path`; refuses an end that does not come after the start, at the end's field.
   */
  period(starts: string, ends: string, path: string, fields: [string, string]): [string, string];
  period(
    starts: string | null,
    ends: string | null,
    path: string,
    fields: [string, string],
  ): [string | null, string | null];
  period(
    starts: string | null,
    ends: string | null,
    path: string,
    [startField, endField]: [string, string],
  ): [string | null, string | null] {
    const start = this.utcOrNull(starts, `${path}.${startField}`);
    const end = this.utcOrNull(ends, `${path}.${endField}`);
    this.ordered(start, end, `${path}.${endField}`);
    return [start, end];
  }

  /** Refuses an end that does not come after its start. */
  private ordered(starts: string | null, ends: string | null, path: string): void {
    if (starts !== null && ends !== null && ends <= starts)
      this.issue(path, 'The end must come after the start.');
  }
}

export const json = (value: unknown): string => JSON.stringify(value);
export const flag = (value: boolean): 0 | 1 => (value ? 1 : 0);
