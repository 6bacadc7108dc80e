// PostgreSQL: the hot statements (db/prepared.ts) kept prepared on each connection, so the server
// parses and plans each once per connection instead of on every call. A door scan's reads spent
// more of the database's time being planned (about 0.4 ms) than being run. A statement is named by
// its text's hash, so every process and every connection gives the same text the same name.
// A statement that selects `*` is never kept: once a migration adds a column (a rolling upgrade
// does that beside running processes) PostgreSQL refuses to run it ("cached plan must not change
// result type"); the hot reads name their columns (db/columns.ts).
import { createHash } from 'node:crypto';
import type pg from 'pg';

const names = new Map<string, string>();

/** `*` as a select list or part of one (not count(*)): its columns change with the table. */
const everyColumn = /(^|[\s,(])("[^"]+"\.)?\*(?=[\s,]|$)/;

/** Has PostgreSQL keep the statement prepared on each connection (unless it selects `*`). */
export function keepPrepared(text: string): void {
  if (names.has(text) || everyColumn.test(text)) return;
  names.set(text, `tessera_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`);
}

/** Whether the statement is kept prepared: for tests. */
export function keptPrepared(text: string): boolean {
  return names.has(text);
}

/** A statement as node-postgres runs it: by its name when it is kept prepared. */
export function statementConfig(text: string, values: unknown[] | undefined): pg.QueryConfig {
  const name = names.get(text);
  return name ? { name, text, values } : { text, values };
}

/** Has a pool's connections run the kept statements by name (node-postgres prepares each once). */
export function namingStatements(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query;
    // Kysely runs each statement as query(text, parameters) and reads the promise it answers.
    client.query = function (this: pg.PoolClient, config: unknown, values?: unknown, callback?: unknown) {
      // biome-ignore lint/suspicious/noExplicitAny: the overloads of query are not callable with a union.
      const run = query as (...args: any[]) => any;
      return typeof config === 'string' && callback === undefined && names.has(config)
        ? run.call(this, statementConfig(config, values as unknown[]))
        : run.call(this, config, values, callback);
    } as typeof client.query;
  });
}
