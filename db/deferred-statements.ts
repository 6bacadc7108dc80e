// PostgreSQL: statements whose answer nobody reads travel with the statement after them. Kysely
// sends `begin` (or `start transaction …`) as a statement of its own, and a page in index order
// sets `enable_sort` before and after its read (db/dialect.ts inIndexOrder): each a round trip that
// answers nothing. Each connection here holds such statements back and sends them with the next
// statement, in its round trip: joined to it in one simple-protocol string when neither takes
// parameters (`begin; select …`, `set local …; commit`), else written ahead of it without waiting
// for their answers (node-postgres's pipeline mode, which the pool's connections are opened in:
// db/connect.ts). Each pipelined statement ends with its own Sync, but every held one follows a
// `begin`: should one fail, the transaction is aborted and what follows fails too, so nothing runs
// outside it. The transaction is the same; an error in a held statement is the next statement's
// error (a `commit` after a failed one would answer ROLLBACK and no error: it is refused here).
// Inside a transaction, a statement named by sendWithNext (an insert whose caller reads nothing of
// its answer: the outbox's messages) is held the same way, with its parameters, and goes with the
// next statement, usually the commit: a write's message costs no round trip of its own. A
// transaction that ran nothing before its end is never sent at all.
// The write queue's change position (sendWhenNextRuns: `select pg_current_xact_id()`) is held too,
// and its caller learns when the server ran it (the answer's `sent`): it is pipelined ahead of the
// next statement with a Sync of its own, so the server answers it before that statement runs (one
// waiting on another transaction's lock holds up no other write's turn to take its position:
// core/platform/storage/write-batch.ts); should the next statement not follow in the same turn of
// the event loop, it is sent alone at once.
import type pg from 'pg';

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

interface Held {
  text: string;
  /** Its parameters, as its caller gave them. */
  values?: unknown[];
  /** Resolved once the server ran it, or it was dropped (awaited ones). */
  ran?: () => void;
}

/** Tells the callers awaiting held statements that these went (or never will). */
function settle(held: readonly Held[]): void {
  for (const h of held) h.ran?.();
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

/**
 * One connection's statements held back, the ones already sent alone whose failure the next statement
 * must still answer, and whether a transaction is open on it. Each statement is held (a transaction's
 * opening or setting, the change position, an unread insert), dropped with the empty transaction it
 * ends, or sent: joined to what is held in one string, or pipelined after it.
 */
class DeferringConnection {
  private held: Held[] = [];
  private sent: Promise<unknown>[] = [];
  private inTransaction = false;
  /** Runs a statement on the connection as node-postgres would. */
  private readonly run: Query;

  constructor(client: pg.PoolClient, query: Query) {
    this.run = (...args: unknown[]) => query.apply(client, args);
  }

  /** A statement of the connection's user: held back, answered at once, or sent with what is held. */
  query(config: unknown, values?: unknown, callback?: unknown): unknown {
    const text = typeof config === 'string' && callback === undefined ? config : undefined;
    const plain = text !== undefined && noParameters(values);
    if (plain) {
      const command = heldCommand(text);
      if (command) return this.hold(text, command);
      if (awaited.has(text) && this.inTransaction) return this.holdAwaited(text);
    }
    if (text !== undefined && unread.has(text) && Array.isArray(values) && this.inTransaction)
      return this.holdUnread(text, values);
    if (text !== undefined && endsTransaction.test(text)) {
      this.inTransaction = false;
      if (plain && this.ranNothing()) return this.dropTransaction(text);
    }
    return this.send(config, values, callback, text, plain);
  }

  /** Whatever a user held back and never followed is dropped: the server never saw it, the next user must not. */
  released(): void {
    settle(this.held);
    this.held = [];
    this.sent = [];
    this.inTransaction = false;
  }

  /** A transaction's opening or setting: answered at once, sent with the next statement. */
  private hold(text: string, command: string) {
    if (opensTransaction.test(text)) this.inTransaction = true;
    this.held.push({ text });
    return Promise.resolve(heldAnswer(command));
  }

  /** The change position (sendWhenNextRuns): answered at once, its `sent` resolved once it ran. */
  private holdAwaited(text: string) {
    let ran!: () => void;
    const sent = new Promise<void>((resolve) => {
      ran = resolve;
    });
    const entry: Held = { text, ran };
    this.held.push(entry);
    // The next statement comes at once (in the same turn of the event loop) or the position goes
    // alone: a write that first awaits something else (a receiver's address looked up) must not
    // hold up the next write's turn meanwhile.
    setImmediate(() => this.sendAlone(entry));
    return Promise.resolve({ ...heldAnswer('SELECT'), rowCount: 1, rows: [{ sent }] });
  }

  /** Sends what is held, unless no longer holding `entry` (a statement took it along). */
  private sendAlone(entry: Held): void {
    const still = this.held;
    if (!still.includes(entry)) return;
    this.held = [];
    this.sent.push(...pipelined(this.run, still));
  }

  /** An insert whose caller reads nothing of its answer (sendWithNext): held with its parameters. */
  private holdUnread(text: string, values: unknown[]) {
    // One without parameters goes joined to its neighbours in one string, as a transaction's opening does.
    this.held.push(values.length > 0 ? { text, values } : { text });
    return Promise.resolve(heldAnswer('HELD'));
  }

  /** Whether the transaction being ended held only its opening and statements without parameters. */
  private ranNothing(): boolean {
    const held = this.held;
    return held.length > 0 && opensTransaction.test(held[0]!.text) && held.every((h) => !h.values);
  }

  /**
   * A transaction that ran nothing (a read whose answer needed no row: GET /me) was never opened on
   * the server: it needs no end there either, and no round trip.
   */
  private dropTransaction(text: string) {
    const held = this.held;
    this.held = [];
    settle(held);
    return Promise.resolve(heldAnswer(/^commit|^end/i.test(text) ? 'COMMIT' : 'ROLLBACK'));
  }

  /** Sends the statement, with what is held before it: joined to it in one string, or pipelined ahead. */
  private send(
    config: unknown,
    values: unknown,
    callback: unknown,
    text: string | undefined,
    plain: boolean,
  ) {
    const held = this.held;
    const before = this.sent;
    if (held.length === 0 && before.length === 0) return this.run(config, values, callback);
    this.held = [];
    this.sent = [];
    if (plain && before.length === 0 && held.every((h) => h.values === undefined && !h.ran)) {
      // One simple-protocol string; node-postgres answers a result per statement, the caller wants its own.
      return this.run(`${held.map((h) => h.text).join('; ')}; ${config}`).then(
        (results: pg.QueryResult[]) => results[results.length - 1],
      );
    }
    const heldRuns = [...before, ...pipelined(this.run, held)];
    const answer = this.run(config, values, callback);
    // Answered through answeredAfter, once the held ones are: never left unhandled meanwhile.
    if (text !== undefined) (answer as Promise<unknown>).catch(() => {});
    // A query object (a cursor) or a call with a callback is answered as it comes (no caller of
    // this service's makes either; a held one's failure then shows as the aborted transaction's).
    if (text === undefined) return answer;
    // A rollback undoes whatever failed before it: it answers for itself.
    if (/^(rollback|abort)\b/i.test(text)) return answer;
    return answeredAfter(heldRuns, answer as Promise<pg.QueryResult>);
  }
}

/**
 * Has a pool's connections hold back the statements whose answer nobody reads (above). The pool
 * must open its connections in pipeline mode (`pipeline: true`).
 */
export function deferringStatements(pool: pg.Pool): void {
  const connections = new WeakMap<pg.PoolClient, DeferringConnection>();
  // A transaction opened and given up before its first statement leaves nothing to the next user.
  pool.on('release', (_error: unknown, client: pg.PoolClient) => connections.get(client)?.released());
  pool.on('connect', (client) => {
    const connection = new DeferringConnection(client, client.query as Query);
    connections.set(client, connection);
    client.query = ((config: unknown, values?: unknown, callback?: unknown) =>
      connection.query(config, values, callback)) as typeof client.query;
  });
}

/**
 * Sends the held statements, without waiting for their answers: the ones without parameters in a row
 * joined in one simple-protocol string, each with parameters as a statement of its own. Answers a
 * promise per statement sent; the awaited ones are settled once theirs is answered.
 */
function pipelined(run: (...args: unknown[]) => Promise<unknown>, held: readonly Held[]): Promise<unknown>[] {
  const runs: Promise<unknown>[] = [];
  for (let i = 0; i < held.length; ) {
    const h = held[i]!;
    let group: readonly Held[];
    let sent: Promise<unknown>;
    if (h.values) {
      group = [h];
      sent = run(h.text, h.values);
    } else {
      let end = i + 1;
      while (end < held.length && !held[end]!.values) end += 1;
      group = held.slice(i, end);
      sent = run(group.map((g) => g.text).join('; '));
    }
    const done = () => settle(group);
    sent.then(done, done);
    runs.push(sent);
    i += group.length;
  }
  return runs;
}

/**
 * The statement's answer once the held statements before it are answered: the first held one's
 * error if any failed (the statement then failed as the aborted transaction's, or, a commit,
 * answered ROLLBACK), else the statement's own answer or error.
 */
async function answeredAfter(heldRuns: Promise<unknown>[], answer: Promise<pg.QueryResult>) {
  const settled = await Promise.allSettled(heldRuns);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  try {
    const result = await answer;
    if (failed) throw failed.reason;
    return result;
  } catch (error) {
    throw failed ? failed.reason : error;
  }
}
