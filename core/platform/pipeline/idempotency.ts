// Idempotency-Key: the first answer is kept 24 hours and replayed to a retry; the same key for
// another method, path or body gets 422; a retry while the first is still running gets 409.
//
// The answer is written in the same transaction as the change it answers: a crash before the
// commit leaves neither, so the retry simply runs again. "Still running" is kept in memory for
// this process (a request that died with its process holds nothing) and, on PostgreSQL, as a lock
// the write's transaction holds, for requests running in other processes.
import { createHash } from 'node:crypto';
import type { Db } from '../../../db/connect';
import { tryTransactionLock } from '../../../db/dialect';
import type { Actor } from '../actor';
import type { Clock } from '../clock';
import type { DetailPart } from '../mentions';
import { type Problem, type ProblemCode, problem } from '../problems';

export const idempotencyHours = 24;

export interface IdempotencyRequest {
  key: string;
  /** REST method, or MCP for a tool call. */
  method: string;
  /** REST path, or the tool name. */
  path: string;
}

/** An idempotent call's first answer: D, what the operation answers, or the problem it answered. */
export type StoredAnswer<D = unknown> =
  | { kind: 'data'; data: D }
  | {
      kind: 'problem';
      code: ProblemCode;
      /** Its parts, so a replay names the operations it mentions as the first answer did (text before). */
      detail: string | DetailPart[];
      extras: Record<string, unknown>;
    };

export function checkIdempotencyKey(key: string): void {
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw problem(
      'invalidIdempotencyKey',
      'An Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is suitable).',
    );
  }
}

export function hashBody(input: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(input ?? null))
    .digest('hex');
}

/** Requests of this process still running, by key and idempotency key. */
export class IdempotencyInFlight {
  private readonly running = new Set<string>();

  /** Marks the request running; 409 idempotencyKeyInUse (retry after a second) when it already is. */
  enter(apiKeyId: string, key: string): () => void {
    const id = `${apiKeyId}\n${key}`;
    if (this.running.has(id)) throw keyInUse();
    this.running.add(id);
    return () => this.running.delete(id);
  }
}

function keyInUse(): Problem {
  return problem(
    'idempotencyKeyInUse',
    'A request with this Idempotency-Key is still running; wait, then resend.',
    {
      retryAfter: 1,
    },
  );
}

/**
 * The stored first answer under this key, when there is a live one; 422 idempotencyKeyReused when
 * it was for another method, path or body. Run inside the write's transaction.
 */
export async function storedAnswer<D>(
  trx: Db,
  clock: Clock,
  apiKeyId: string,
  request: IdempotencyRequest,
  bodyHash: string,
): Promise<StoredAnswer<D> | null> {
  // The same key running in another process holds this until its transaction ends.
  if (!(await tryTransactionLock(trx, `idempotency\n${apiKeyId}\n${request.key}`))) throw keyInUse();
  const existing = await trx
    .selectFrom('idempotency_records')
    .select(['method', 'path', 'body_hash', 'response_body', 'expires_utc'])
    .where('api_key_id', '=', apiKeyId)
    .where('idempotency_key', '=', request.key)
    .executeTakeFirst();
  if (!existing || existing.expires_utc <= clock.now().toISOString()) return null;
  if (
    existing.method !== request.method ||
    existing.path !== request.path ||
    existing.body_hash !== bodyHash
  ) {
    throw problem(
      'idempotencyKeyReused',
      'This Idempotency-Key was already used for another method, path or body.',
    );
  }
  // Stored by storeAnswer from this same call's first answer (method, path and body matched).
  return JSON.parse(existing.response_body) as StoredAnswer<D>;
}

/** Keeps the first answer for 24 hours (taking over an expired record of the same key). */
export async function storeAnswer(
  trx: Db,
  clock: Clock,
  actor: Actor,
  request: IdempotencyRequest,
  bodyHash: string,
  answer: StoredAnswer,
): Promise<void> {
  const now = clock.now();
  const record = {
    workspace_id: actor.workspaceId,
    method: request.method,
    path: request.path,
    body_hash: bodyHash,
    response_body: JSON.stringify(answer),
    created_utc: now.toISOString(),
    expires_utc: new Date(now.getTime() + idempotencyHours * 3_600_000).toISOString(),
  };
  await trx
    .insertInto('idempotency_records')
    .values({ api_key_id: actor.keyId, idempotency_key: request.key, ...record })
    .onConflict((oc) => oc.columns(['api_key_id', 'idempotency_key']).doUpdateSet(record))
    .execute();
}

export function storedProblem(p: Problem): StoredAnswer<never> {
  return { kind: 'problem', code: p.code, detail: [...p.parts], extras: p.extras };
}

export async function purgeIdempotencyRecords(db: Db, clock: Clock): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_records')
    .where('expires_utc', '<=', clock.now().toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
