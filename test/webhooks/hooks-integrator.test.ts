// An integrator's checks of automation subscriptions, made exactly as the API names them: the body
// is `url`, `event` and `eventId` and nothing else (no `client`), sent with curl's User-Agent, as a
// developer trying /hooks from a terminal would. Each check an integrator makes passes in order:
// create, read, list newest first, the per-type path, delivery, one event only, 410, delete, the
// 201st refused, and the subscriptions ending with the key that made them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../core/admin/api-keys';
import { expectProblem } from '../support/fixtures';
import { type Receiver, startReceiver } from '../support/receiver';
import { person, register, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

const curl = { 'user-agent': 'curl/8.5.0' };
let t: TestServer;
let r: Receiver;
let workspaceId: string;
let key: string;
let apiKeyId: string;
let summit: string;
let meetup: string;
let standard: string;
let general: string;

beforeAll(async () => {
  t = await startTestServer({
    env: { TESSERA_SECRET_KEY: 'integrator-test-master-key-0123456789abcdef' },
    delivery: { allowPrivate: true, timeoutMs: 2_000 },
  });
  r = await startReceiver();
  ({ workspaceId } = await t.workspace('Integrator workspace', true));
  ({ key, apiKeyId } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  const ids = sampleIds(workspaceId);
  summit = ids.event('summit');
  meetup = ids.event('meetup');
  standard = ids.ticketType('summit', 'standard');
  general = ids.ticketType('meetup', 'general');
});
afterAll(async () => {
  await t?.close();
  await r?.close();
});

const subscribe = (body: Record<string, unknown>, path = '/hooks') =>
  t.api(path, { key, method: 'POST', body, headers: curl });

async function registerAt(eventId: string, ticketTypeId: string) {
  const res = await register(t, key, eventId, [person(ticketTypeId)]);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

describe("an integrator's checks of /hooks with the API's exact body", () => {
  let first: string;
  let second: string;

  it('creates with url, event and eventId alone: 201, a Location, the platform recorded as unknown', async () => {
    const made = await subscribe({ url: r.url('/first'), event: 'attendee.registered', eventId: summit });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({
      event: 'attendee.registered',
      eventId: summit,
      client: 'unknown',
      active: true,
    });
    expect(made.headers.get('location')).toMatch(new RegExp(`/api/v1/hooks/${made.body.id}$`));
    first = made.body.id;
  });

  it('reads it back with GET /hooks/{hookId}', async () => {
    const read = await t.api(`/hooks/${first}`, { key, headers: curl });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: first, event: 'attendee.registered', eventId: summit });
  });

  it('creates on the per-type path with url and eventId, and lists the newest first', async () => {
    const made = await subscribe({ url: r.url('/second'), eventId: summit }, '/hooks/attendee.registered');
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ event: 'attendee.registered', client: 'unknown' });
    second = made.body.id;
    const ids = (await t.api('/hooks', { key })).body.data.map((h: { id: string }) => h.id);
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
    expect(ids.indexOf(second)).toBeGreaterThanOrEqual(0);
  });

  it('delivers a registration of its event to both, unsigned, the data at the top level', async () => {
    await registerAt(summit, standard);
    const got = await r.waitFor(2);
    expect(got.map((g) => g.path).sort()).toEqual(['/first', '/second']);
    for (const g of got) {
      expect(g.headers['webhook-signature']).toBeUndefined();
      expect(g.json).toMatchObject({ type: 'attendee.registered', event: { eventId: summit } });
    }
  });

  it('sends nothing for a registration of another event', async () => {
    const before = r.received.length;
    await registerAt(meetup, general);
    await registerAt(summit, standard);
    await r.waitFor(before + 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = r.received.slice(before);
    expect(after).toHaveLength(2);
    for (const g of after) expect(g.json.event.eventId).toBe(summit);
  });

  it('ends a subscription whose callback answers 410', async () => {
    r.reply((req) => ({ status: req.path === '/first' ? 410 : 200 }));
    const before = r.received.length;
    await registerAt(summit, standard);
    await r.waitFor(before + 2);
    await expect.poll(async () => (await t.api(`/hooks/${first}`, { key })).status).toBe(404);
    r.reply(() => ({ status: 200 }));
  });

  it('deletes with 204; the subscription is then gone', async () => {
    expect((await t.api(`/hooks/${second}`, { key, method: 'DELETE', headers: curl })).status).toBe(204);
    expectProblem(await t.api(`/hooks/${second}`, { key }), 404, 'notFound');
  });

  it('refuses the 201st with 400 tooManyHooks', async () => {
    const live = (await t.api('/hooks', { key })).body.data.length;
    for (let made = live; made < 200; made += 20) {
      const answers = await Promise.all(
        Array.from({ length: Math.min(20, 200 - made) }, (_, i) =>
          subscribe({ url: r.url(`/many-${made + i}`), event: 'order.paid', eventId: summit }),
        ),
      );
      for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(201);
    }
    expectProblem(
      await subscribe({ url: r.url('/many-201'), event: 'order.paid', eventId: summit }),
      400,
      'tooManyHooks',
    );
  });

  it("ends the key's subscriptions when the key is revoked", async () => {
    const db = t.server.services.db;
    const made = await db.selectFrom('hooks').select('id').where('api_key_id', '=', apiKeyId).execute();
    expect(made.length).toBeGreaterThan(190);
    const result = await revokeKey(db, t.server.services.clock, apiKeyId);
    expect(result.subscriptionsRemoved).toBe(made.length);
    const left = await db
      .selectFrom('hooks')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('active', '=', 1)
      .execute();
    expect(left).toEqual([]);
    expectProblem(await t.api('/hooks', { key }), 401, 'keyRevoked');
  });
});
