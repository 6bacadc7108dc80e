// PostgreSQL: statements whose answer nobody reads travel with the statement after them. Kysely
// sends `begin` (or `start transaction …`) as a statement of its own, and a page in index order
// sets `enable_sort` before and after its read (db/dialect.ts inIndexOrder): each a round trip that
// answers nothing. Each connection here holds such statements back and sends them with the next
// statement: in the same round trip when that one takes no parameters (the simple protocol runs
// several statements separated by semicolons: the write queue's change position, `commit`), and in
// one round trip too when it takes parameters (a transaction's first read, a page in index order):
// the extended protocol carries each held statement, then the statement, then one Sync, so should a
// held one fail the server skips the rest and nothing runs outside the transaction. The transaction
// is the same; an error in a held statement is the next statement's error.
import pg from 'pg';
import { statementConfig, withObjectRows } from './server-statements';

/** Statements answered by their command alone: opening a transaction, a transaction's setting. */
const answerless: [RegExp, string][] = [
  [/^(begin|start transaction)\b/i, 'BEGIN'],
  [/^set local\b/i, 'SET'],
];

// biome-ignore lint/suspicious/noExplicitAny: the overloads of query are not callable with a union.
type Query = (...args: any[]) => any;

const noParameters = (values: unknown) =>
  values === undefined || (Array.isArray(values) && values.length === 0);

/** The command node-postgres would answer for `text`, if it is a statement held back. */
function heldCommand(text: string): string | undefined {
  return answerless.find(([pattern]) => pattern.test(text))?.[1];
}

/** Has a pool's connections hold back the statements whose answer nobody reads (above). */
export function deferringStatements(pool: pg.Pool): void {
  const heldOf = new WeakMap<pg.PoolClient, string[]>();
  // Whatever a user of the connection held back and never followed (a transaction opened and given
  // up before its first statement) is dropped: the server never saw it, the next user must not.
  pool.on('release', (_error: unknown, client: pg.PoolClient) => heldOf.set(client, []));
  pool.on('connect', (client) => {
    const query = client.query as Query;
    heldOf.set(client, []);
    client.query = function (this: pg.PoolClient, config: unknown, values?: unknown, callback?: unknown) {
      const run = (...args: unknown[]) => query.apply(this, args);
      const plain = typeof config === 'string' && callback === undefined && noParameters(values);
      const command = plain ? heldCommand(config as string) : undefined;
      const held = heldOf.get(this) ?? [];
      if (command) {
        held.push(config as string);
        heldOf.set(this, held);
        return Promise.resolve({ command, rowCount: null, rows: [], fields: [], oid: 0 });
      }
      if (held.length === 0) return run(config, values, callback);
      const before = held.join('; ');
      heldOf.set(this, []);
      if (plain) {
        // One round trip; node-postgres answers a result per statement, the caller wants its own.
        return run(`${before}; ${config}`).then((results: pg.QueryResult[]) => results[results.length - 1]);
      }
      // A query object (a cursor) or a call with a callback is answered at once: the connection runs
      // its queries in order, the held ones first (no caller of this service's makes either).
      if (typeof config !== 'string' || callback !== undefined) {
        (run(before) as Promise<unknown>).catch(() => undefined);
        return run(config, values, callback);
      }
      return new Promise((resolve, reject) => {
        const query = new HeldFirst(held, statementConfig(config, values as unknown[]), (error, result) =>
          error ? reject(error) : resolve(withObjectRows(result as pg.QueryResult)),
        );
        run(query);
      });
    } as typeof client.query;
  });
}

/** node-postgres's Query as it is inside, beyond its published types. */
interface QueryInside {
  prepare(connection: pg.Connection): void;
  handleCommandComplete(message: unknown, connection: pg.Connection): void;
}

const queryInside = pg.Query.prototype as unknown as QueryInside;

/**
 * A statement with parameters sent with the statements held before it, in one round trip: each held
 * one parsed, bound and executed on the unnamed statement and portal, then the statement as
 * node-postgres sends it, then the one Sync that ends them all. Their completions are not its own.
 */
class HeldFirst extends pg.Query implements QueryInside {
  /** How many command completions still belong to the held statements. */
  private heldLeft: number;

  constructor(
    readonly held: readonly string[],
    config: pg.QueryConfig,
    callback: (error: Error | undefined, result: unknown) => void,
  ) {
    super({ ...config, callback } as pg.QueryConfig);
    this.heldLeft = held.length;
  }

  prepare(connection: pg.Connection): void {
    for (const text of this.held) {
      connection.parse({ text, name: '', types: [] }, false);
      connection.bind({ portal: '', statement: '', values: [] }, false);
      connection.execute({ portal: '' }, false);
    }
    queryInside.prepare.call(this, connection);
  }

  handleCommandComplete(message: unknown, connection: pg.Connection): void {
    if (this.heldLeft > 0) {
      this.heldLeft -= 1;
      return;
    }
    queryInside.handleCommandComplete.call(this, message, connection);
  }
}
