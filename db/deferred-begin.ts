// PostgreSQL: a transaction's `begin` travels with its first statement. Kysely sends `begin` (or
// `start transaction …`) as a statement of its own, one round trip that answers nothing anyone
// reads. Each connection here holds it back and sends it with the next statement: in the same
// round trip when that statement takes no parameters (the simple protocol runs several statements
// separated by semicolons: the write queue's change position, `set local`, `commit`), else just
// before it, the statement waiting for its answer. The transaction is the same; an error in
// `begin` is the next statement's error.
import type pg from 'pg';

/** Statements that open a transaction, as Kysely's PostgreSQL driver words them. */
const opening = /^(begin|start transaction\b)/i;

/** What node-postgres answers a `begin`: Kysely reads its command, row count and rows. */
const begun = { command: 'BEGIN', rowCount: null, rows: [], fields: [], oid: 0 };

// biome-ignore lint/suspicious/noExplicitAny: the overloads of query are not callable with a union.
type Query = (...args: any[]) => any;

const noParameters = (values: unknown) =>
  values === undefined || (Array.isArray(values) && values.length === 0);

/** Has a pool's connections hold each `begin` back for the statement after it. */
export function deferringBegin(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query as Query;
    let held: string | null = null;
    client.query = function (this: pg.PoolClient, config: unknown, values?: unknown, callback?: unknown) {
      const run = (...args: unknown[]) => query.apply(this, args);
      const plain = typeof config === 'string' && callback === undefined;
      if (plain && noParameters(values) && opening.test(config)) {
        held = config;
        return Promise.resolve(begun);
      }
      if (held === null) return run(config, values, callback);
      const opener = held;
      held = null;
      if (plain && noParameters(values)) {
        // Both in one round trip; node-postgres answers a result per statement, the caller wants its own.
        return run(`${opener}; ${config}`).then((results: pg.QueryResult[]) => results[results.length - 1]);
      }
      // A cursor is answered at once: the connection runs its queries in order, the opener first.
      if (typeof config !== 'string') {
        (run(opener) as Promise<unknown>).catch(() => undefined);
        return run(config, values, callback);
      }
      // Sent once the opener has succeeded: should it fail, nothing runs outside the transaction.
      return (run(opener) as Promise<unknown>).then(() => run(config, values, callback));
    } as typeof client.query;
  });
}
