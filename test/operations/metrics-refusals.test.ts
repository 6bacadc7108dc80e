// The refusals of the public limiters counted in /metrics by their limiter, over HTTPS with the
// real server, as a client meets them: the OAuth dynamic registration endpoint, the ticket page
// with wrong codes, the public sign-up form by e-mail address and by client address. Each case
// drives one limiter past its limit and checks that its series, and no other limiter's, went up by
// the refusals. (The key and failed-authentication limits are in health-metrics.test.ts.)
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RateLimiterName } from '../../core/platform/metrics';
import { parsePrometheusText } from '../support/prometheus-text';
import { MutableClock, startTestServer, type TestServer } from '../support/server';
import { registrationRequest } from '../support/sign-in';
import { formPerson, formTicketType, publishedEvent, sendForm } from '../support/sign-up';

/** Every limiter at nought: a new RateLimiterName does not compile here until this file knows it. */
const noRefusals: Record<RateLimiterName, number> = {
  key: 0,
  authFailure: 0,
  signUpAddress: 0,
  signUpEmail: 0,
  ticketMiss: 0,
  oauthRegistration: 0,
};

/** TESSERA_SIGN_UP_ADDRESS_LIMIT: above the five sends one e-mail address may make, so that limit shows alone. */
const signUpsPerAddress = 7;

const clock = new MutableClock();
let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer({
    clock,
    env: {
      TESSERA_METRICS_ALLOW: '127.0.0.1/32,::1',
      TESSERA_SIGN_UP_ADDRESS_LIMIT: String(signUpsPerAddress),
    },
  });
  const { workspaceId } = await t.workspace('Refusals workspace');
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t?.close());

// Every case comes from the same address: the clock passes the longest window (ten minutes) first,
// so no case finds a window another one filled.
beforeEach(() => clock.advance(11 * 60_000));

/** Refusals counted so far, by limiter (/metrics answers loopback without a token). */
async function refusals(): Promise<Record<string, number>> {
  const res = await t.fetch(`${t.server.origin}/metrics`);
  expect(res.status).toBe(200);
  const series = parsePrometheusText(await res.text()).all('tessera_rate_limited_total');
  return Object.fromEntries(series.map((s) => [s.labels.limiter!, s.value]));
}

/** Runs the calls and checks that only `limiter`'s series moved, by `refused`. */
async function expectCounted(limiter: RateLimiterName, refused: number, calls: () => Promise<void>) {
  const before = await refusals();
  await calls();
  const after = await refusals();
  const moved = Object.fromEntries(Object.keys(after).map((name) => [name, after[name]! - before[name]!]));
  expect(moved).toEqual({ ...noRefusals, [limiter]: refused });
}

describe('tessera_rate_limited_total', () => {
  it('counts the refusals of client registration (20 a minute) as oauthRegistration', async () => {
    await expectCounted('oauthRegistration', 2, async () => {
      for (let i = 0; i < 20; i++)
        expect((await registrationRequest(t, { client_name: `Client ${i}` })).status).toBe(201);
      for (let i = 0; i < 2; i++) {
        const refused = await registrationRequest(t);
        expect(refused.status).toBe(429);
        expect(refused.body.code).toBe('rateLimited');
      }
    });
  });

  it('counts the paused ticket lookups (past 30 misses a minute) as ticketMiss', async () => {
    const lookUp = async (code: string) => (await t.fetch(`${t.server.origin}/t/${code}`)).status;
    await expectCounted('ticketMiss', 2, async () => {
      for (let i = 0; i < 30; i++) expect(await lookUp(`${'D'.repeat(24)}${10 + i}`)).toBe(404);
      for (let i = 0; i < 2; i++) expect(await lookUp(`${'E'.repeat(24)}${10 + i}`)).toBe(429);
    });
  });

  it('counts sign-ups refused for their e-mail address (5 per event in ten minutes) as signUpEmail', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await formTicketType(t, event.eventId);
    const form = {
      [`qty.${typeId}`]: '1',
      ...formPerson(0, { email: 'same@example.org' }),
      action: 'register',
    };
    await expectCounted('signUpEmail', 2, async () => {
      for (let i = 0; i < 5; i++) expect((await sendForm(t, event.slug, form)).status).toBe(303);
      for (let i = 0; i < 2; i++) {
        const refused = await sendForm(t, event.slug, form);
        expect(refused.status).toBe(429);
        expect(refused.text).toContain('Too many registrations were sent');
      }
    });
  });

  it('counts sign-ups refused for their client address (TESSERA_SIGN_UP_ADDRESS_LIMIT) as signUpAddress', async () => {
    const event = await publishedEvent(t, key);
    const typeId = await formTicketType(t, event.eventId);
    const send = () =>
      sendForm(t, event.slug, { [`qty.${typeId}`]: '1', ...formPerson(0), action: 'register' });
    await expectCounted('signUpAddress', 2, async () => {
      for (let i = 0; i < signUpsPerAddress; i++) expect((await send()).status).toBe(303);
      for (let i = 0; i < 2; i++) {
        const refused = await send();
        expect(refused.status).toBe(429);
        expect(refused.text).toContain('Too many registrations were sent');
      }
    });
  });
});

describe("the sign-up form's refusals", () => {
  it("answers a send refused for its e-mail address with that address's wait, not the client address's", async () => {
    const event = await publishedEvent(t, key);
    const typeId = await formTicketType(t, event.eventId);
    const send = (email: string) =>
      sendForm(t, event.slug, { [`qty.${typeId}`]: '1', ...formPerson(0, { email }), action: 'register' });
    // The client address's window opens now; the e-mail address's five minutes later.
    expect((await send('first@example.org')).status).toBe(303);
    clock.advance(5 * 60_000);
    for (let i = 0; i < 5; i++) expect((await send('again@example.org')).status).toBe(303);
    const refused = await send('again@example.org');
    expect(refused.status).toBe(429);
    // Ten minutes from the e-mail's first send, not five from the client address's.
    expect(Number(refused.retryAfter)).toBeGreaterThan(9 * 60);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(10 * 60);
  });
});
