// Runs one operation for one caller, the same way for REST and MCP: scope, demonstration
// refusal, input validation, then the handler — writes in one transaction, with the
// idempotency record completed inside that same transaction.
import type { Ctx } from './context';
import {
  checkIdempotencyKey,
  claimIdempotencyKey,
  completeIdempotencyKey,
  type IdempotencyRequest,
  releaseIdempotencyKey,
  storedProblem,
} from './idempotency';
import type { AnyOperation } from './operation';
import { isProblem, problem } from './problems';
import { requireScope } from './scopes';
import { parseInput } from './validation';

export interface InvokeOptions {
  /** Top-level input fields that came from a JSON body: a wrong type there is invalidBody. */
  bodyFields?: ReadonlySet<string>;
  idempotency?: IdempotencyRequest;
}

export interface Invocation {
  data: unknown;
  /** True when this is the stored first answer to an idempotent retry. */
  replayed: boolean;
}

export async function invoke(
  operation: AnyOperation,
  ctx: Ctx,
  raw: unknown,
  options: InvokeOptions = {},
): Promise<Invocation> {
  if (operation.scope !== 'any') requireScope(ctx.actor.scopes, operation.scope);
  if (options.idempotency) checkIdempotencyKey(options.idempotency.key);
  if (operation.effect !== 'read' && ctx.actor.demonstration) {
    throw problem(
      'demoWorkspace',
      'The demonstration workspace is read-only; create a workspace of your own to make changes.',
    );
  }
  const input = parseInput(operation.input, raw, options.bodyFields);
  if (operation.effect === 'read') return { data: await operation.handler(ctx, input), replayed: false };
  return runWrite(operation, ctx, input, options.idempotency);
}

async function runWrite(
  operation: AnyOperation,
  ctx: Ctx,
  input: unknown,
  idempotency?: IdempotencyRequest,
): Promise<Invocation> {
  const { db, clock } = ctx.services;
  const keyId = ctx.actor.keyId;
  if (!idempotency) {
    const data = await ctx.services.writes.run((trx) =>
      operation.handler({ ...ctx, db: trx }, input as never),
    );
    return { data, replayed: false };
  }
  const claim = await claimIdempotencyKey(db, clock, keyId, idempotency);
  if (claim.kind === 'replay') {
    const answer = claim.answer;
    if (answer.kind === 'problem') throw problem(answer.code, answer.detail, answer.extras);
    return { data: answer.data, replayed: true };
  }
  try {
    const data = await ctx.services.writes.run(async (trx) => {
      const output = await operation.handler({ ...ctx, db: trx }, input as never);
      await completeIdempotencyKey(trx, keyId, idempotency.key, 200, { kind: 'data', data: output });
      return output;
    });
    return { data, replayed: false };
  } catch (error) {
    // A refusal is the first answer and is replayed; a fault is forgotten so a retry runs again.
    if (isProblem(error) && error.status < 500) {
      await completeIdempotencyKey(db, keyId, idempotency.key, error.status, storedProblem(error));
    } else {
      await releaseIdempotencyKey(db, keyId, idempotency.key);
    }
    throw error;
  }
}
