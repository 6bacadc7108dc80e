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
// The write queue's change position (sendWhenNextRuns: `select pg_current_xact_id()`) is held too,
// and its caller learns when the server ran it (the answer's `sent`): it travels with the next
// statement when that one never waits on another transaction's lock (neverWaits: a scan's reads)
// and follows in the same turn of the event loop, else in a round trip of its own first, so a write
// waiting on a lock, or on anything else, holds up no other write's turn to take its position
// (core/platform/storage/write-batch.ts).
import pg from 'pg';
import { countUse, statementConfig, withObjectRows } from './server-statements';

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

/** Statements (without parameters) held in a transaction whose caller awaits the moment they ran. */
const awaited = new Set<string>();

/**
 * Has a statement without parameters whose answer its caller never reads go with the next one in a
 * transaction; it is answered at once with one row whose `sent` resolves once the server ran it (or
 * the transaction ended without it: then it never ran).
 */
export function sendWhenNextRuns(text: string): void {
  awaited.add(text);
}

/** Statements that never wait on another transaction's lock (plain reads): an awaited one goes with them. */
const lockFree = new Set<string>();

/** Names a statement that never waits on another transaction's lock (a read without FOR UPDATE/SHARE). */
export function neverWaits(text: string): void {
  lockFree.add(text);
}

interface Held {
  text: string;
  /** Its parameters as the wire's text (wireValues). */
  values?: (string | null)[];
  /** Resolved once the server ran it, or it was dropped (awaited ones). */
  ran?: () => void;
}

/** Tells the callers awaiting held statements that these went (or never will). */
function settle(held: readonly Held[]): void {
  for (const h of held) h.ran?.();
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
    settle(heldOf.get(client) ?? []);
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
      if (plain && awaited.has(text!) && inTransaction.has(this)) {
        let ran!: () => void;
        const sent = new Promise<void>((resolve) => {
          ran = resolve;
        });
        const entry: Held = { text: text!, ran };
        held.push(entry);
        heldOf.set(this, held);
        // The next statement comes at once (in the same turn of the event loop) or the position goes
        // alone: a write that first awaits something else (a receiver's address looked up) must not
        // hold up the next write's turn meanwhile.
        setImmediate(() => {
          const still = heldOf.get(this);
          if (!still?.includes(entry)) return;
          heldOf.set(this, []);
          sendAlone(run, still);
        });
        return Promise.resolve({ ...heldAnswer('SELECT'), rowCount: 1, rows: [{ sent }] });
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
          settle(held);
          return Promise.resolve(heldAnswer(/^commit|^end/i.test(text) ? 'COMMIT' : 'ROLLBACK'));
        }
      }
      if (held.length === 0) return run(config, values, callback);
      heldOf.set(this, []);
      if (
        held.some((h) => h.ran) &&
        !(text !== undefined && (lockFree.has(text) || endsTransaction.test(text)))
      ) {
        // This statement may wait on a lock: what its caller awaits goes first, on its own.
        sendAlone(run, held);
        return run(config, values, callback);
      }
      const before = held.map((h) => h.text).join('; ');
      if (plain && held.every((h) => h.values === undefined)) {
        // One round trip; node-postgres answers a result per statement, the caller wants its own.
        return run(`${before}; ${config}`)
          .then((results: pg.QueryResult[]) => results[results.length - 1])
          .finally(() => settle(held));
      }
      // A query object (a cursor) or a call with a callback is answered at once: the connection runs
      // its queries in order, the held ones first, sent ahead of it with a statement of their own
      // (no caller of this service's makes either; a held one's failure then shows as the aborted
      // transaction's).
      if (text === undefined) {
        sendAlone(run, held);
        return run(config, values, callback);
      }
      return new Promise((resolve, reject) => {
        // Extended even without parameters: the held ones may have some, and travel the same way.
        countUse(text);
        const config = extended(statementConfig(text, values as unknown[]));
        const query = new HeldFirst(held, config, (error, result) => {
          settle(held);
          if (error) reject(error);
          else resolve(withObjectRows(result as pg.QueryResult));
        });
        run(query);
      });
    } as typeof client.query;
  });
}

/**
 * Sends the held statements in a round trip of their own, ahead of what the connection runs next
 * (it runs its queries in order; a held one's failure then shows as the aborted transaction's).
 */
function sendAlone(run: (...args: unknown[]) => unknown, held: readonly Held[]): void {
  const done = () => settle(held);
  if (held.every((h) => h.values === undefined))
    void (run(held.map((h) => h.text).join('; ')) as Promise<unknown>).then(done, done);
  else run(new HeldFirst(held, extended({ text: 'select 1' }), done));
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
  handleDataRow(message: unknown): void;
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

  handleDataRow(message: unknown): void {
    // A held statement's row (the change position's): nobody reads it.
    if (this.heldLeft > 0) return;
    queryInside.handleDataRow.call(this, message);
  }

  handleCommandComplete(message: unknown, connection: pg.Connection): void {
    if (this.heldLeft > 0) {
      this.heldLeft -= 1;
      return;
    }
    queryInside.handleCommandComplete.call(this, message, connection);
  }
}
