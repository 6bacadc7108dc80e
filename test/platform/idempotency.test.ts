// Idempotency-Key (spec "Common conventions", "Limits"): a retry gets the first answer, a key in
// flight gives 409, a key reused for another method, path or body gives 422, a bad key gives 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashBody, storedAnswer } from '../../core/platform/pipeline/idempotency';
import { isProblem } from '../../core/platform/problems';
import { eventBody, expectProblem } from '../support/fixtures';
import { MutableClock, startTestServer, type TestServer } from '../support/server';

let t: TestServer;
const clock = new MutableClock();
let workspaceId: string;
let writer: string;
let writerId: string;

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Idempotency workspace'));
  const made = await t.key({ workspaceId, scopes: ['events:write'], expires: 'never' });
  writer = made.key;
  writerId = made.apiKeyId;
});
afterAll(async () => t.close());

const post = (body: unknown, idempotencyKey?: string, key = writer) =>
  t.api('/events', {
    key,
    method: 'POST',
    body,
    headers: idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey },
  });

const eventCount = async () => (await t.api('/workspace', { key: writer })).body.events as number;

describe('replay', () => {
  it('answers a retry with the first answer, marked Idempotent-Replayed, and creates nothing new', async () => {
    const body = eventBody();
    const first = await post(body, 'retry-1');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const count = await eventCount();
    const retry = await post(body, 'retry-1');
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await eventCount()).toBe(count);
  });

  it('creates a new event for a new key with the same body', async () => {
    const body = eventBody();
    const a = await post(body, 'same-body-a');
    const b = await post(body, 'same-body-b');
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body.eventId).not.toBe(a.body.eventId);
  });

  it('creates an event on every POST without a key', async () => {
    const body = eventBody();
    const a = await post(body);
    const b = await post({ ...body, name: `${body.name} again` });
    expect(b.body.eventId).not.toBe(a.body.eventId);
  });

  it('keeps keys apart per API key: another key may use the same Idempotency-Key', async () => {
    const other = await t.key({ workspaceId, scopes: ['events:write'], expires: 'never' });
    const body = eventBody();
    const mine = await post(body, 'shared-name');
    const theirs = await post(body, 'shared-name', other.key);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.eventId).not.toBe(mine.body.eventId);
  });

  it('replays a refusal too: a retry of a request refused with 409 slugTaken gets the same 409', async () => {
    const taken = await post(eventBody({ slug: 'fixed-slug' }));
    expect(taken.status).toBe(201);
    const body = eventBody({ slug: 'fixed-slug' });
    const first = await post(body, 'refused-once');
    expectProblem(first, 409, 'slugTaken');
    const retry = await post(body, 'refused-once');
    expectProblem(retry, 409, 'slugTaken');
    expect(retry.body.detail).toBe(first.body.detail);
  });

  it('keeps the first answer 24 hours, then treats the key as new', async () => {
    const body = eventBody();
    const first = await post(body, 'day-old');
    clock.advance(23 * 3_600_000);
    const within = await post(body, 'day-old');
    expect(within.body.eventId).toBe(first.body.eventId);
    clock.advance(2 * 3_600_000);
    const after = await post(body, 'day-old');
    expect(after.status).toBe(201);
    expect(after.headers.get('idempotent-replayed')).toBeNull();
    expect(after.body.eventId).not.toBe(first.body.eventId);
  });
});

describe('422 idempotencyKeyReused', () => {
  it('refuses the same key with another body with 422 idempotencyKeyReused', async () => {
    const body = eventBody();
    expect((await post(body, 'reused-body')).status).toBe(201);
    const count = await eventCount();
    const res = await post({ ...body, name: 'Something else' }, 'reused-body');
    expectProblem(res, 422, 'idempotencyKeyReused');
    expect(await eventCount()).toBe(count);
  });

  it('refuses the same key for another path or method with idempotencyKeyReused', async () => {
    const body = eventBody();
    expect((await post(body, 'reused-path')).status).toBe(201);
    const { db, clock: serverClock } = t.server.services;
    const lookUp = (request: { method: string; path: string }) =>
      storedAnswer(db, serverClock, writerId, { key: 'reused-path', ...request }, hashBody(body)).then(
        (answer) => (answer ? 'replay' : 'fresh'),
        (error: unknown) => (isProblem(error) ? error.code : String(error)),
      );
    expect(await lookUp({ method: 'POST', path: '/api/v1/events/other' })).toBe('idempotencyKeyReused');
    expect(await lookUp({ method: 'PUT', path: '/api/v1/events' })).toBe('idempotencyKeyReused');
    // The same request is answered from the record (a replay), not refused.
    expect(await lookUp({ method: 'POST', path: '/api/v1/events' })).toBe('replay');
  });
});

describe('400 invalidIdempotencyKey', () => {
  it('refuses an empty key, a 256-character key and non-ASCII or blank characters with 400', async () => {
    const count = await eventCount();
    for (const bad of ['', 'k'.repeat(256), 'clé', 'two words']) {
      const res = await post(eventBody(), bad);
      expectProblem(res, 400, 'invalidIdempotencyKey');
    }
    expect(await eventCount()).toBe(count);
  });

  it('accepts 255 visible ASCII characters and a UUID', async () => {
    expect((await post(eventBody(), '~'.repeat(255))).status).toBe(201);
    expect((await post(eventBody(), crypto.randomUUID())).status).toBe(201);
  });
});

describe('409 idempotencyKeyInUse', () => {
  it('refuses a key whose first request is still running with 409 and Retry-After, then runs it', async () => {
    const body = eventBody();
    const leave = t.server.services.idempotencyInFlight.enter(writerId, 'in-flight');
    const count = await eventCount();
    const busy = await post(body, 'in-flight');
    expectProblem(busy, 409, 'idempotencyKeyInUse');
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(busy.body.retryAfter).toBe(1);
    expect(await eventCount()).toBe(count);
    leave();
    expect((await post(body, 'in-flight')).status).toBe(201);
  });

  it('keeps no record of a request that never finished: the first answer is written with its change', async () => {
    const before = await t.server.services.db
      .selectFrom('idempotency_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const leave = t.server.services.idempotencyInFlight.enter(writerId, 'never-finished');
    leave();
    const after = await t.server.services.db
      .selectFrom('idempotency_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('creates exactly one event from many identical parallel requests', async () => {
    const body = eventBody();
    const count = await eventCount();
    const answers = await Promise.all(Array.from({ length: 12 }, () => post(body, 'parallel')));
    const created = answers.filter((a) => a.status === 201);
    const busy = answers.filter((a) => a.status === 409);
    expect(created.length + busy.length).toBe(answers.length);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const a of created) expect(a.body).toEqual(created[0]!.body);
    for (const a of busy) expect(a.body.code).toBe('idempotencyKeyInUse');
    expect(await eventCount()).toBe(count + 1);
    const retry = await post(body, 'parallel');
    expect(retry.body).toEqual(created[0]!.body);
  });
});
