// PostgreSQL: the hot statements (db/prepared.ts) kept prepared on each connection, so the server
// parses and plans each once per connection instead of on every call. A door scan's reads spent
// more of the database's time being planned (about 0.4 ms) than being run. A statement is named by
// its text's hash, so every process and every connection gives the same text the same name.
// A statement that selects `*` is never kept: once a migration adds a column (a rolling upgrade
// does that beside running processes) PostgreSQL refuses to run it ("cached plan must not change
// result type"); the hot reads name their columns (db/columns.ts).
// Reads built anew on each call (a list's page, whose text depends on its filters) are kept the
// same way once the process has sent the same text a few times, up to a bound: a page of 500
// attendees was parsed and planned for 0.9 ms of the database's time before it ran for 0.1.
// Every statement's rows come back as arrays and are made into objects by a function per column
// list (db/row-objects.ts): node-postgres builds each row object a property at a time, which was a
// sixth of a page of 500 attendees read in-process.
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { rowObjectOf, rowsAsObjects } from './row-objects';

const names = new Map<string, string>();

/** `*` as a select list or part of one (not count(*)): its columns change with the table. */
const everyColumn = /(^|[\s,(])("[^"]+"\.)?\*(?=[\s,]|$)/;

/** Has PostgreSQL keep the statement prepared on each connection (unless it selects `*`). */
export function keepPrepared(text: string): void {
  if (names.has(text) || everyColumn.test(text)) return;
  names.set(text, `tessera_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`);
}

/** Times a read is sent before it is kept prepared, and how many reads may be kept that way. */
export const keptAfterUses = 3;
export const mostKeptOnUse = 128;
/** Uses of the reads not kept (yet), by text; forgotten whole when it grows past its bound. */
const uses = new Map<string, number>();
let keptOnUse = 0;

/**
 * Counts a use of a statement sent as text; a read (one select, named columns) sent keptAfterUses
 * times is kept prepared from then on, while fewer than mostKeptOnUse were kept so.
 */
export function countUse(text: string): void {
  if (names.has(text) || keptOnUse >= mostKeptOnUse || !/^select\b/i.test(text) || text.includes(';')) return;
  const n = (uses.get(text) ?? 0) + 1;
  if (n < keptAfterUses) {
    if (uses.size >= 10_000) uses.clear();
    uses.set(text, n);
    return;
  }
  uses.delete(text);
  keepPrepared(text);
  if (names.has(text)) keptOnUse += 1;
}

/** Whether the statement is kept prepared: for tests. */
export function keptPrepared(text: string): boolean {
  return names.has(text);
}

/** A statement as node-postgres runs it: by its name when it is kept prepared, its rows as arrays. */
export function statementConfig(text: string, values: unknown[] | undefined): pg.QueryArrayConfig {
  const name = names.get(text);
  return name ? { name, text, values, rowMode: 'array' } : { text, values, rowMode: 'array' };
}

/** A result of statementConfig's with its rows made objects, as Kysely reads them. */
export function withObjectRows<R extends pg.QueryResult | pg.QueryResult[]>(result: R): R {
  const results: pg.QueryResult[] = Array.isArray(result) ? result : [result];
  for (const one of results) {
    if (one.rows.length > 0) rowsAsObjects(one.rows, rowObjectOf(one.fields.map((field) => field.name)));
  }
  return result;
}

/**
 * Has a pool's connections send each statement given as text as statementConfig says: the kept ones
 * by name (node-postgres prepares each once per connection), every one's rows as arrays made objects.
 */
export function sendingStatements(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query;
    // Kysely runs each statement as query(text, parameters) and reads the promise it answers.
    client.query = function (this: pg.PoolClient, config: unknown, values?: unknown, callback?: unknown) {
      // biome-ignore lint/suspicious/noExplicitAny: the overloads of query are not callable with a union.
      const run = query as (...args: any[]) => any;
      if (typeof config !== 'string' || callback !== undefined || typeof values === 'function')
        return run.call(this, config, values, callback);
      countUse(config);
      return run.call(this, statementConfig(config, values as unknown[])).then(withObjectRows);
    } as typeof client.query;
  });
}
