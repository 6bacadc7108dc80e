// Runs one operation for one caller, the same way for REST and MCP, by its declaration. The steps,
// in the code's order:
//  1. a write with the read-only demonstration key is refused (demoWorkspace);
//  2. the scope (older keys keep theirs);
//  3. the idempotency key's form;
//  4. the input: ids read in lower case, the schema, the field rules and undeclared keys together;
//  5. a read runs in one snapshot; a write in one transaction of the write queue, where an idempotent
//     one answers its stored first answer, or else runs steps 6-9 in a savepoint and stores what
//     they answer (a refusal too);
//  6. the event's rules (exists, online, module), then people's data (peopleScope);
//  7. a conditional resource's write holds what its tag names on PostgreSQL (`ifMatch.hold`), as the
//     write will hold it, then If-Match against the entity tag of the view `ifMatch.current` loads
//     (412 preconditionFailed);
//  8. the handler, a collision with a unique key answered as the problem `unique` declares (and a
//     write referring to its event, or a row it names, removed meanwhile answered as it would be
//     after that removal: eventNotFound, or the operation's namedRowGone, load-event.ts);
//  9. a write's activity entry, as `activity` declares it (none when it changed nothing);
// 10. the writes the handler left for last, just before the commit (a registration's places,
//     last-writes.ts);
// 11. whatever it answers must be among the problems it declares (problemsOf);
// 12. an operation taking ticket codes is refused while its caller is paused for guessing them, and
//     the codes that named no ticket are counted after the call (ticket-code-guesses.ts).
import type * as v from 'valibot';
import { isPostgres } from '../../../db/dialect';
import { sessionsWithSnapshot } from '../../../db/sessions-at-snapshot';
import type { Ctx } from '../context';
import { lowerCaseIds } from '../ids';
import { isDetailParts } from '../mentions';
import { isProblem, problem } from '../problems';
import { requireScope } from '../scopes';
import { withSavepoint } from '../storage/savepoint';
import { guessesRefused, subjectOfActor } from '../ticket-code-guesses';
import { scopeNeeded } from './call-permission';
import { beginCall, type CallReads } from './call-reads';
import { logOperation } from './change-log';
import { checkIfMatch } from './etag';
import {
  checkIdempotencyKey,
  hashBody,
  type IdempotencyRequest,
  type StoredAnswer,
  storeAnswer,
  storedAnswer,
  storedProblem,
} from './idempotency';
import { beginLastWrites } from './last-writes';
import { enforceEventRules, namedRowRemovedMeanwhile } from './load-event';
import {
  type AnyOperation,
  type EventReads,
  type IfMatch,
  type InputSchema,
  type Loaded,
  type Operation,
  Unchanged,
} from './operation';
import { problemsOf } from './operation-problems';
import { isPaged } from './paging';
import { canReadPeople } from './personal-data';
import { readOnlyTransaction } from './read-only-transaction';
import { uniqueProblem } from './unique-problems';
import { parseInput } from './validation';

export interface InvokeOptions {
  /** Top-level input fields that came from a JSON body: a wrong type there is invalidBody. */
  bodyFields?: ReadonlySet<string>;
  idempotency?: IdempotencyRequest;
}

export interface Invocation<D> {
  data: D;
  /** True when this is the stored first answer to an idempotent retry. */
  replayed: boolean;
}

/**
 * Runs `operation` for the caller of `ctx` on `input` (as sent: invoke validates it, so a request's
 * fields come as they are, and a caller in process passes the operation's typed input), answering
 * what its handler answers.
 */
export async function invoke<I extends InputSchema, O extends v.GenericSchema, W extends EventReads, D>(
  operation: Operation<I, O, W, D>,
  ctx: Ctx,
  raw: v.InferInput<I>,
  options: InvokeOptions = {},
): Promise<Invocation<D>> {
  // The demonstration key holds read scopes only: a write is refused for what it is first.
  if (operation.effect !== 'read' && ctx.actor.demonstration) {
    throw problem(
      'demoWorkspace',
      'The demonstration workspace is read-only; create a workspace of your own to make changes.',
    );
  }
  if (operation.operator && !ctx.actor.operator)
    throw new Error(`${operation.name} is run by the operator at the command line only.`);
  const needed = scopeNeeded(operation, ctx.actor);
  if (needed !== 'any') requireScope(ctx.actor.scopes, needed);
  if (options.idempotency) checkIdempotencyKey(options.idempotency.key);
  const normalised = lowerCaseIds(raw);
  const input = parseInput(operation.input, normalised, options.bodyFields, operation.rules);
  const guesses = operation.ticketCodes && !ctx.actor.operator ? startGuesses(ctx) : undefined;
  const call = guesses ? { ...ctx, ticketMisses: guesses.misses } : ctx;
  try {
    const done = await run(operation, call, input, options, normalised);
    // Committed: the answer stands; its misses count towards the caller's next calls.
    await guesses?.count();
    return done;
  } catch (error) {
    const refused = await guesses?.count();
    if (refused) throw refused;
    throw declared(operation, ctx, await namedRowRemovedMeanwhile(ctx, operation, input, error));
  }
}

async function run<I extends InputSchema, O extends v.GenericSchema, W extends EventReads, D>(
  operation: Operation<I, O, W, D>,
  ctx: Ctx,
  input: v.InferOutput<I>,
  options: InvokeOptions,
  normalised: unknown,
): Promise<Invocation<D>> {
  if (operation.effect === 'read') return { data: await read(operation, ctx, input), replayed: false };
  await operation.before?.(ctx, input);
  if (!options.idempotency) {
    const data = await ctx.services.writes.run((trx, moment) =>
      runHandler(operation, { ...ctx, db: trx, clock: moment }, input),
    );
    await operation.afterCommit?.(ctx.services);
    return { data: operation.settle ? await operation.settle(ctx, data) : data, replayed: false };
  }
  const done = await runIdempotent(operation, ctx, input, options.idempotency, hashBody(normalised));
  if (!done.replayed) await operation.afterCommit?.(ctx.services);
  // An idempotent operation's settle runs on the kept answer each time: it reads what was committed.
  return operation.settle ? { ...done, data: await operation.settle(ctx, done.data) } : done;
}

/**
 * An operation taking ticket codes (`ticketCodes`): refused while its caller is paused for guessing;
 * else the codes that named no ticket are collected, and counted once the call ended (outside its
 * transaction, which a refusal would undo and an idempotent one would keep as its first answer).
 * `count` answers the refusal to give instead of the call's own problem when they went past the limit.
 */
function startGuesses(ctx: Ctx) {
  const { ticketGuesses, clock } = ctx.services;
  const subject = subjectOfActor(ctx.actor);
  const paused = ticketGuesses.pausedFor(subject, clock.now());
  if (paused !== null) {
    ctx.services.metrics?.rateLimited('ticketMiss');
    throw guessesRefused(paused);
  }
  const misses = new Set<string>();
  return {
    misses,
    async count() {
      if (misses.size === 0) return undefined;
      const decision = await ticketGuesses.countMisses(subject, misses.size, clock.now());
      misses.clear();
      if (decision.allowed) return undefined;
      ctx.services.metrics?.rateLimited('ticketMiss');
      return guessesRefused(decision.retryAfter);
    },
  };
}

/**
 * A read sees one moment of the database however many statements it runs. On SQLite the one
 * connection gives that; on PostgreSQL each statement would see its own moment (a delivery read
 * before an attempt was recorded, its attempts after), so a read runs in a read-only transaction
 * with one snapshot.
 */
async function read<I extends InputSchema, O extends v.GenericSchema, W extends EventReads, D>(
  operation: Operation<I, O, W, D>,
  ctx: Ctx,
  input: v.InferOutput<I>,
): Promise<D> {
  // A long read's steps are already in a snapshot of their own (long-read.ts).
  if (!isPostgres(ctx.db) || ctx.db.isTransaction) return runHandler(operation, ctx, input);
  // A page of the change feed shows a change once the writes in line before it have ended: its
  // snapshot is taken once this process's writes below those answered so far have ended (read your
  // writes), or a moment later should one of them wait on a lock.
  const paged = isPaged(operation);
  if (paged) await ctx.services.writes.earlierWritesEnded();
  return readOnlyTransaction(ctx.db, ctx.services.log, async (trx) => {
    if (paged) await sessionsWithSnapshot(trx);
    return runHandler(operation, { ...ctx, db: trx }, input);
  });
}

/**
 * The call itself: the event's rules and what invoke reads for the handler, people's data, the tag,
 * the handler given what was read, and a write's activity entry (none when it changed nothing).
 */
async function runHandler<I extends InputSchema, O extends v.GenericSchema, W extends EventReads, D>(
  operation: Operation<I, O, W, D>,
  ctx: Ctx,
  input: v.InferOutput<I>,
): Promise<D> {
  // A context of its own, so what this call reads (call-reads.ts) is its own.
  const call: Ctx = { ...ctx };
  const reads = beginCall(call);
  // What enforceEventRules read is what the operation's types say it reads: the event whenever the
  // input names one, the declared rows whenever readsWithEvent declared reads. TypeScript cannot
  // carry a generic input's eventId into Loaded's conditional types: the one cast of the pipeline.
  const loaded = (await enforceEventRules(call, operation, input)) as Loaded<I, W>;
  if (operation.aboutPeople && !canReadPeople(call.actor))
    throw problem('peopleScope', operation.aboutPeople);
  if (operation.ifMatch) await holdAndCheckTag(call, reads, operation, operation.ifMatch, input);
  const last = beginLastWrites(call);
  let answer: D | Unchanged<D>;
  try {
    answer = await operation.handler(call, input, loaded);
  } catch (error) {
    throw uniqueProblem(operation, input, error);
  }
  if (!(answer instanceof Unchanged) && operation.effect !== 'read')
    await logOperation(call, operation, input, answer);
  await last.run();
  return answer instanceof Unchanged ? answer.answer : answer;
}

/**
 * A conditional resource's write holds what its tag names on PostgreSQL before it reads anything of
 * it, sent a tag or not: with a tag, so two writes sent one tag cannot both pass the check; without,
 * so a change writing its row back whole from its read ("send only what changes") cannot lose
 * another's change made meanwhile. Then the tag, when sent, against the view read under the hold.
 */
async function holdAndCheckTag<I>(
  call: Ctx,
  reads: CallReads,
  operation: AnyOperation,
  ifMatch: IfMatch<I>,
  input: I,
): Promise<void> {
  const tagged = call.request.ifMatch !== undefined;
  if (isPostgres(call.db)) {
    await ifMatch.hold(call, input, operation.effect === 'destructive' ? 'removal' : 'change');
    // The event its rules read came before the hold: the view reads it again, as held.
    if (tagged) reads.events.clear();
  }
  if (tagged) checkIfMatch(call, await ifMatch.current(call, input));
}

async function runIdempotent<I extends InputSchema, O extends v.GenericSchema, W extends EventReads, D>(
  operation: Operation<I, O, W, D>,
  ctx: Ctx,
  input: v.InferOutput<I>,
  request: IdempotencyRequest,
  bodyHash: string,
): Promise<Invocation<D>> {
  const { services, actor } = ctx;
  const leave = services.idempotencyInFlight.enter(actor.keyId, request.key);
  try {
    const outcome = await services.writes.run(async (trx, clock) => {
      const first = await storedAnswer<D>(trx, clock, actor.keyId, request, bodyHash);
      if (first) return { answer: first, replayed: true };
      let answer: StoredAnswer<D>;
      try {
        // A refusal is the first answer too, and is replayed; what it may have written is undone.
        const data = await withSavepoint(trx, () => runHandler(operation, { ...ctx, db: trx, clock }, input));
        answer = { kind: 'data', data };
      } catch (error) {
        if (!isProblem(error) || error.status >= 500) throw error;
        answer = storedProblem(error);
      }
      await storeAnswer(trx, clock, actor, request, bodyHash, answer);
      return { answer, replayed: false };
    });
    const { answer } = outcome;
    if (answer.kind === 'problem')
      throw problem(
        answer.code,
        isDetailParts(answer.detail) ? answer.detail : String(answer.detail),
        answer.extras,
      );
    return { data: answer.data, replayed: outcome.replayed };
  } finally {
    leave();
  }
}

/**
 * A problem the operation does not declare is a bug in the declaration or the handler: it is
 * logged, and in strict mode (the test suite) answered as a fault so a test notices.
 */
function declared(operation: AnyOperation, ctx: Ctx, error: unknown): unknown {
  if (!isProblem(error) || problemsOf(operation).has(error.code)) return error;
  ctx.services.log.error(
    { operation: operation.name, code: error.code },
    'an operation answered a problem it does not declare',
  );
  return ctx.services.strictProblems
    ? problem('serverError', `${operation.name} answered ${error.code}, which it does not declare.`)
    : error;
}
