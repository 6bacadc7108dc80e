// Guessing /metrics's token, over HTTPS with the real server: a missing or wrong token counts as a
// failed authentication of its address, in the one count the API, MCP and the sign-in's key form
// share, so past TESSERA_AUTH_FAILURE_LIMIT the address is answered 429 rateLimited with
// Retry-After, while the right token still reads the metrics.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectProblem } from '../support/fixtures';
import { MutableClock, startTestServer, type TestServer } from '../support/server';

const token = 'metrics-token-for-the-guessing-test';
const limit = 3;

const clock = new MutableClock();
let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer({
    clock,
    env: { TESSERA_METRICS_TOKEN: token, TESSERA_AUTH_FAILURE_LIMIT: String(limit) },
  });
  const { workspaceId } = await t.workspace('Guessing workspace');
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t?.close());

// Each case starts with the address's minute passed, so no case finds failures another one left.
beforeEach(() => clock.advance(61_000));

/** /metrics with `credential` as the bearer token, or with no Authorization header. */
const metrics = (credential?: string) =>
  t.api('//metrics', credential === undefined ? {} : { key: credential });

function expectRefusedForGuessing(res: Awaited<ReturnType<typeof metrics>>) {
  expectProblem(res, 429, 'rateLimited');
  const wait = Number(res.headers.get('retry-after'));
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(60);
}

describe('/metrics with a wrong token', () => {
  it('answers 429 with Retry-After past the limit; the right token still reads the metrics', async () => {
    expectProblem(await metrics(), 401, 'metricsTokenInvalid');
    for (let i = 1; i < limit; i++)
      expectProblem(await metrics(`wrong-token-number-${i}-of-the-guesser`), 401, 'metricsTokenInvalid');
    expectRefusedForGuessing(await metrics('yet-another-wrong-token-0123'));
    expectRefusedForGuessing(await metrics());
    const right = await metrics(token);
    expect(right.status).toBe(200);
    expect(right.body).toContain('tessera_rate_limited_total');
  });

  it('counts with the API: failures at /metrics refuse the API, and the API still serves a working key', async () => {
    for (let i = 0; i < limit; i++)
      expectProblem(await metrics(`wrong-token-number-${i}-of-the-guesser`), 401, 'metricsTokenInvalid');
    expectProblem(await t.api('/me', { key: 'not-a-key' }), 429, 'rateLimited');
    expect((await t.api('/me', { key })).status).toBe(200);
  });

  it('counts with the API: failures at the API refuse /metrics', async () => {
    for (let i = 0; i < limit; i++)
      expectProblem(await t.api('/me', { key: 'not-a-key' }), 401, 'invalidKey');
    expectRefusedForGuessing(await metrics('wrong-token-after-the-api-guesses'));
    expect((await metrics(token)).status).toBe(200);
  });
});
