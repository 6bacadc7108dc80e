// Idempotency-Key: the first answer is kept 24 hours and replayed to a retry; a retry while the
// first is still running gets 409; the same key for another method, path or body gets 422.
import { createHash } from 'node:crypto';
import type { Db } from '../../db/connect';
import type { Clock } from './clock';
import { type Problem, type ProblemCode, problem } from './problems';

export const idempotencyHours = 24;
/** A claim left running this long is taken to belong to a request that died. */
const abandonedAfterMs = 5 * 60_000;

export interface IdempotencyRequest {
  key: string;
  method: string;
  path: string;
  /** Hash of the request's input, so another body under the same key is recognised. */
  bodyHash: string;
}

export type StoredAnswer =
  | { kind: 'data'; data: unknown }
  | { kind: 'problem'; code: ProblemCode; detail: string; extras: Record<string, unknown> };

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

/**
 * Claims the key for this request. Answers 'fresh' when the caller should run the operation,
 * or the stored answer of the first request to replay; throws 409/422 as the spec says.
 */
export async function claimIdempotencyKey(
  db: Db,
  clock: Clock,
  apiKeyId: string,
  request: IdempotencyRequest,
): Promise<{ kind: 'fresh' } | { kind: 'replay'; answer: StoredAnswer }> {
  const now = clock.now();
  const nowIso = now.toISOString();
  const existing = await db
    .selectFrom('idempotency_records')
    .selectAll()
    .where('api_key_id', '=', apiKeyId)
    .where('idempotency_key', '=', request.key)
    .executeTakeFirst();

  if (existing && existing.expires_utc > nowIso) {
    if (
      existing.method !== request.method ||
      existing.path !== request.path ||
      existing.body_hash !== request.bodyHash
    ) {
      throw problem(
        'idempotencyKeyReused',
        'This Idempotency-Key was already used for another method, path or body.',
      );
    }
    if (existing.state === 'done' && existing.response_body !== null) {
      return { kind: 'replay', answer: JSON.parse(existing.response_body) as StoredAnswer };
    }
    if (now.getTime() - Date.parse(existing.created_utc) < abandonedAfterMs) {
      throw problem(
        'idempotencyKeyInUse',
        'A request with this Idempotency-Key is still running; wait, then resend.',
      );
    }
  }

  const expires = new Date(now.getTime() + idempotencyHours * 3_600_000).toISOString();
  const abandonedBefore = new Date(now.getTime() - abandonedAfterMs).toISOString();
  const claim = {
    method: request.method,
    path: request.path,
    body_hash: request.bodyHash,
    state: 'running',
    status: null,
    response_body: null,
    created_utc: nowIso,
    expires_utc: expires,
  };
  const claimed = await db
    .insertInto('idempotency_records')
    .values({ api_key_id: apiKeyId, idempotency_key: request.key, ...claim })
    .onConflict((oc) =>
      oc
        .columns(['api_key_id', 'idempotency_key'])
        .doUpdateSet(claim)
        // Only an expired or abandoned record may be taken over; a live one belongs to another request.
        .where((eb) =>
          eb.or([
            eb('idempotency_records.expires_utc', '<=', nowIso),
            eb.and([
              eb('idempotency_records.state', '=', 'running'),
              eb('idempotency_records.created_utc', '<', abandonedBefore),
            ]),
          ]),
        ),
    )
    .executeTakeFirst();
  if (Number(claimed.numInsertedOrUpdatedRows ?? 0n) === 0) {
    throw problem(
      'idempotencyKeyInUse',
      'A request with this Idempotency-Key is still running; wait, then resend.',
    );
  }
  return { kind: 'fresh' };
}

export async function completeIdempotencyKey(
  db: Db,
  apiKeyId: string,
  key: string,
  status: number,
  answer: StoredAnswer,
): Promise<void> {
  await db
    .updateTable('idempotency_records')
    .set({ state: 'done', status, response_body: JSON.stringify(answer) })
    .where('api_key_id', '=', apiKeyId)
    .where('idempotency_key', '=', key)
    .execute();
}

/** Forgets a claim whose request failed on the service's side, so a retry runs again. */
export async function releaseIdempotencyKey(db: Db, apiKeyId: string, key: string): Promise<void> {
  await db
    .deleteFrom('idempotency_records')
    .where('api_key_id', '=', apiKeyId)
    .where('idempotency_key', '=', key)
    .execute();
}

export function storedProblem(p: Problem): StoredAnswer {
  return { kind: 'problem', code: p.code, detail: p.detail, extras: p.extras };
}

export async function purgeIdempotencyRecords(db: Db, clock: Clock): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_records')
    .where('expires_utc', '<=', clock.now().toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
