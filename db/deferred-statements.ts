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
// Inside a transaction, a statement named by sendWithNext (an insert whose caller reads nothing of
// its answer: the outbox's messages) is held the same way, with its parameters, and goes with the
// next statement, usually the commit: a write's message costs no round trip of its own. A
// transaction that ran nothing before its end is never sent at all.
import pg from 'pg';
import { statementConfig, withObjectRows } from './server-statements';

/** Statements answered by their command alone: opening a transaction, a transaction's setting. */
const opensTransaction = /^(begin|start transaction)\b/i;
const answerless: [RegExp, string][] = [
  [opensTransaction, 'BEGIN'],
  [/^set local\b/i, 'SET'],
];
const endsTransaction = /^(commit|end|abort)\b|^rollback\b(?!\s+to\b)/i;

/** Statements (by their text) whose callers read nothing of the answer: sent with the next, in a transaction. */
const unread = new Set<string>();

/** Has a statement whose answer its caller never reads go with the next one when in a transaction. */
export function sendWithNext(text: string): void {
  unread.add(text);
}

interface Held {
  text: string;
  /** Its parameters as the wire's text (wireValues). */
  values?: (string | null)[];
}

/**
 * Parameters as node-postgres would send them, for the kinds it sends as their text (strings,
 * numbers, booleans, bigints, null): what an outbox insert binds. Undefined for any other kind (a
 * date, a buffer, an array, an object), whose statement is then not held but sent as it comes.
 */
function wireValues(values: unknown): (string | null)[] | undefined {
  if (!Array.isArray(values)) return undefined;
  const wire: (string | null)[] = [];
  for (const value of values) {
    if (value === null || value === undefined) wire.push(null);
    else if (['string', 'number', 'boolean', 'bigint'].includes(typeof value)) wire.push(String(value));
    else return undefined;
  }
  return wire;
}

/** What a held statement is answered at once: nothing to read (no rows, no count). */
const heldAnswer = (command: string) => ({ command, rowCount: null, rows: [], fields: [], oid: 0 });

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
  const heldOf = new WeakMap<pg.PoolClient, Held[]>();
  const inTransaction = new WeakSet<pg.PoolClient>();
  // Whatever a user of the connection held back and never followed (a transaction opened and given
  // up before its first statement) is dropped: the server never saw it, the next user must not.
  pool.on('release', (_error: unknown, client: pg.PoolClient) => {
    heldOf.set(client, []);
    inTransaction.delete(client);
  });
  pool.on('connect', (client) => {
    const query = client.query as Query;
    heldOf.set(client, []);
    client.query = function (this: pg.PoolClient, config: unknown, values?: unknown, callback?: unknown) {
      const run = (...args: unknown[]) => query.apply(this, args);
      const text = typeof config === 'string' && callback === undefined ? config : undefined;
      const plain = text !== undefined && noParameters(values);
      const command = plain ? heldCommand(text) : undefined;
      const held = heldOf.get(this) ?? [];
      if (command) {
        if (opensTransaction.test(text!)) inTransaction.add(this);
        held.push({ text: text! });
        heldOf.set(this, held);
        return Promise.resolve(heldAnswer(command));
      }
      const wire = text !== undefined && unread.has(text) ? wireValues(values) : undefined;
      if (wire && inTransaction.has(this) && parsedHere(this, text!)) {
        held.push({ text: text!, values: wire });
        heldOf.set(this, held);
        return Promise.resolve(heldAnswer('HELD'));
      }
      if (text !== undefined && endsTransaction.test(text)) {
        inTransaction.delete(this);
        // A transaction that ran nothing (a read whose answer needed no row: GET /me) was never
        // opened on the server: it needs no end there either, and no round trip.
        if (
          plain &&
          held.length > 0 &&
          opensTransaction.test(held[0]!.text) &&
          held.every((h) => !h.values)
        ) {
          heldOf.set(this, []);
          return Promise.resolve(heldAnswer(/^commit|^end/i.test(text) ? 'COMMIT' : 'ROLLBACK'));
        }
      }
      if (held.length === 0) return run(config, values, callback);
      heldOf.set(this, []);
      const before = held.map((h) => h.text).join('; ');
      if (plain && held.every((h) => h.values === undefined)) {
        // One round trip; node-postgres answers a result per statement, the caller wants its own.
        return run(`${before}; ${config}`).then((results: pg.QueryResult[]) => results[results.length - 1]);
      }
      // A query object (a cursor) or a call with a callback is answered at once: the connection runs
      // its queries in order, the held ones first, sent ahead of it with a statement of their own
      // (no caller of this service's makes either; a held one's failure then shows as the aborted
      // transaction's).
      if (text === undefined) {
        run(new HeldFirst(held, extended({ text: 'select 1' }), () => {}));
        return run(config, values, callback);
      }
      return new Promise((resolve, reject) => {
        // Extended even without parameters: the held ones may have some, and travel the same way.
        const config = extended(statementConfig(text, values as unknown[]));
        const query = new HeldFirst(held, config, (error, result) =>
          error ? reject(error) : resolve(withObjectRows(result as pg.QueryResult)),
        );
        run(query);
      });
    } as typeof client.query;
  });
}

/** The connection's statements node-postgres has parsed, by name (beyond its published types). */
const parsedOn = (client: pg.PoolClient) =>
  (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection
    .parsedStatements;

/**
 * Whether a held statement can be sent by what the connection already has: a kept one (by name)
 * once node-postgres parsed it there (the first time it goes as any statement does), any other
 * parsed anew unnamed.
 */
function parsedHere(client: pg.PoolClient, text: string): boolean {
  const { name } = statementConfig(text, undefined);
  return name === undefined || parsedOn(client)[name] === text;
}

/** A query sent by the extended protocol even without parameters (node-postgres's queryMode). */
function extended(config: pg.QueryConfig): pg.QueryConfig {
  return { ...config, queryMode: 'extended' } as pg.QueryConfig;
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
    readonly held: readonly Held[],
    config: pg.QueryConfig,
    callback: (error: Error | undefined, result: unknown) => void,
  ) {
    super({ ...config, callback } as pg.QueryConfig);
    this.heldLeft = held.length;
  }

  prepare(connection: pg.Connection): void {
    for (const { text, values = [] } of this.held) {
      // A kept statement is bound by its name (parsedHere held it only once parsed on this connection).
      const { name = '' } = statementConfig(text, undefined);
      if (!name) connection.parse({ text, name: '', types: [] }, false);
      connection.bind({ portal: '', statement: name, values }, false);
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
