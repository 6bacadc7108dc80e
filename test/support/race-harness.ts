// The set-up race tests share: a store of their own (SQLite file or PostgreSQL database), a
// workspace with a key that may do everything, and two ways to call a use case through invoke:
// one by one through the ordinary write queue (setting the scene), or several at once, each on a
// connection of its own, all having read before any writes (test/support/interleave.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Ctx } from '../../core/platform/context';
import { invoke } from '../../core/platform/pipeline/invoke';
import type { AnyOperation } from '../../core/platform/pipeline/operation';
import { isProblem } from '../../core/platform/problems';
import type { WriteBatcher } from '../../core/platform/storage/write-batch';
import type { Db } from '../../db/connect';
import { type OpenServices, openServices } from '../../src/services';
import { interleaved } from './interleave';
import { everythingKeyContext } from './key-context';
import { databaseFor, onPostgres } from './test-store';

/** An answer, read by its documented fields. */
type Answer = any;

export interface RaceHarness {
  /** One call through the ordinary write queue. */
  call(operation: AnyOperation, input: unknown): Promise<Answer>;
  /**
   * The calls at once, each on a connection of its own, all having read before any writes. Each
   * answers what it got: its data, or the code of its problem (or the error) when refused.
   */
  atOnce(...calls: [AnyOperation, unknown][]): Promise<Answer[]>;
  /**
   * The first call held once it has read, before its first write, while the second runs to its end
   * through the ordinary write queue; then the first writes. Each answers as in atOnce.
   */
  whileHeld(held: [AnyOperation, unknown], meanwhile: [AnyOperation, unknown]): Promise<Answer[]>;
  /**
   * The calls one after the other through the ordinary write queue, each answering as in atOnce:
   * what SQLite does with calls at once (one writer), for tests of locks only PostgreSQL takes.
   */
  inTurn(...calls: [AnyOperation, unknown][]): Promise<Answer[]>;
  /**
   * As whileHeld on PostgreSQL. SQLite writes one call at a time, so a call is never held there
   * between its reads and its writes: the call meanwhile runs first, then the other.
   */
  heldOrInTurn(held: [AnyOperation, unknown], meanwhile: [AnyOperation, unknown]): Promise<Answer[]>;
  /**
   * PostgreSQL only: the first call held before its first statement `at` matches (past reads that
   * lock), while the second runs, until the second ends or waits on a row lock; then the first goes
   * on. Answers both, and whether the second had to wait for the held one.
   */
  heldAt(held: Held, at: RegExp, meanwhile: Held): Promise<{ answers: Answer[]; meanwhileWaited: boolean }>;
  /**
   * The call meanwhile must wait for the held one: on PostgreSQL heldAt, expecting it to have waited
   * on a row lock and not to have been run again (a deadlock's victim); on SQLite (one writer) the
   * held call runs first, then the other. Answers both.
   */
  waitsFor(held: Held, at: RegExp, meanwhile: Held): Promise<Answer[]>;
  /** The store, to read what the calls left. */
  db(): Db;
  /** The context the calls run in (the workspace's key that may do everything). */
  ctx(): Ctx;
  /** One call through a write queue of the test's own (several writers in flight, say). */
  callThrough(writes: WriteBatcher, operation: AnyOperation, input: unknown): Promise<Answer>;
}

/**
 * A held call: an operation with its input, or other work written through the context's write queue
 * (the dispatcher's results, say).
 */
export type Held = [AnyOperation, unknown] | ((ctx: Ctx) => Promise<unknown>);

/** A refusal as the calls answer it: the code of its problem, or the error. */
function answerOf(error: unknown): string {
  return isProblem(error) ? error.code : String(error);
}

/**
 * Whether a connection to this database comes to wait on a row lock (PostgreSQL's
 * pg_stat_activity) before `ended` turns true; polled every few milliseconds.
 */
async function waitingOnLock(db: Db, ended: () => boolean): Promise<boolean> {
  while (!ended()) {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
    if (rows[0]!.n > 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return false;
}

/** The context a call runs in: an operator's command (an import, say) as the operator of the workspace. */
const as = (operation: AnyOperation, base: Ctx): Ctx =>
  operation.operator ? { ...base, actor: { ...base.actor, operator: true } } : base;

/** Registers the set-up and tear-down of a race test file named `name`. */
export function raceHarness(name: string): RaceHarness {
  let dir: string;
  let location: string;
  let opened: OpenServices;
  let ctx: Ctx;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-races-'));
    const database = await databaseFor(dir);
    location = database ?? join(dir, 'tessera.db');
    opened = await openServices({ dataDir: dir, database, ratePerMinute: 1_000_000 });
    const { services } = opened;
    ({ ctx } = await everythingKeyContext(services, name));
  });
  afterAll(async () => {
    await opened?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs a call with the context given (its write queue the race's, or the ordinary one). */
  const runHeld = async (held: Held, base: Ctx): Promise<Answer> => {
    if (typeof held === 'function') return held(base);
    const [op, input] = held;
    return (await invoke(op, as(op, base), fields(input))).data;
  };

  /** A call through the ordinary write queue, answering its data or its refusal. */
  const answered = (held: Held): Promise<Answer> => runHeld(held, ctx).catch(answerOf);

  const harness: RaceHarness = {
    async call(operation, input) {
      return runHeld([operation, input], ctx);
    },
    async atOnce(...calls) {
      const race = interleaved(location, calls.length);
      const racing: Ctx = { ...ctx, services: { ...ctx.services, writes: race.writes } };
      const settled = await Promise.allSettled(
        calls.map(([op, input]) => invoke(op, as(op, racing), fields(input))),
      );
      expect(race.metBeforeWriting(), 'every call had read before any wrote').toBe(calls.length);
      return settled.map((s) => (s.status === 'fulfilled' ? s.value.data : answerOf(s.reason)));
    },
    async whileHeld([op, input], [otherOp, otherInput]) {
      const race = interleaved(location, 2);
      const racing: Ctx = { ...ctx, services: { ...ctx.services, writes: race.writes } };
      const first = invoke(op, as(op, racing), fields(input)).then(
        (done) => done.data,
        (error) => answerOf(error),
      );
      await race.arrived(1);
      const second = await answered([otherOp, otherInput]);
      race.standIn();
      const answers = [await first, second];
      expect(race.metBeforeWriting(), 'the held call had read before it wrote').toBe(1);
      return answers;
    },
    async inTurn(...calls) {
      const answers: Answer[] = [];
      for (const call of calls) answers.push(await answered(call));
      return answers;
    },
    async heldOrInTurn(held, meanwhile) {
      if (onPostgres) return harness.whileHeld(held, meanwhile);
      const other = await answered(meanwhile);
      return [await answered(held), other];
    },
    async heldAt(held, at, meanwhile) {
      const race = interleaved(location, 2, at);
      const racing: Ctx = { ...ctx, services: { ...ctx.services, writes: race.writes } };
      const first = runHeld(held, racing).catch(answerOf);
      await race.arrived(1);
      let ended = false;
      const second = answered(meanwhile).finally(() => {
        ended = true;
      });
      const meanwhileWaited = await waitingOnLock(ctx.db, () => ended);
      race.standIn();
      const answers = [await first, await second];
      expect(race.metBeforeWriting(), 'the held call got to its statement').toBe(1);
      return { answers, meanwhileWaited };
    },
    async waitsFor(held, at, meanwhile) {
      if (!onPostgres) return [await answered(held), await answered(meanwhile)];
      const ranAgain = ctx.services.writes.ranAgain;
      const { answers, meanwhileWaited } = await harness.heldAt(held, at, meanwhile);
      expect(meanwhileWaited, 'the call meanwhile waits for the held one').toBe(true);
      // A deadlock's victim runs again whole and then answers well: the counter tells it happened.
      expect(ctx.services.writes.ranAgain - ranAgain, 'no deadlock: nothing ran again').toBe(0);
      return answers;
    },
    db: () => ctx.db,
    ctx: () => ctx,
    async callThrough(writes, operation, input) {
      return (
        await invoke(
          operation,
          as(operation, { ...ctx, services: { ...ctx.services, writes } }),
          fields(input),
        )
      ).data;
    },
  };
  return harness;
}

/** A test's input, as a request's fields reach invoke (which checks them as it checks those). */
export function fields(input: unknown): Record<string, unknown> {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    throw new Error('An input is an object.');
  return Object.fromEntries(Object.entries(input));
}
