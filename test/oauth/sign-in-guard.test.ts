// Wrong keys at the assistant sign-in's key form count as failed authentications from their
// address, with the API's and MCP's (TESSERA_AUTH_FAILURE_LIMIT): past the limit the form answers
// 429 with Retry-After and says why, the API refuses that address's wrong keys too, and the
// refusals are counted in /metrics as authFailure. A working key still signs in: nobody can lock a
// real key out by failing on purpose.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parsePrometheusText } from '../support/prometheus-text';
import { startTestServer, type TestServer } from '../support/server';
import { openSignIn } from '../support/sign-in';

const limit = 3;
let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer({
    env: { TESSERA_AUTH_FAILURE_LIMIT: String(limit), TESSERA_METRICS_ALLOW: '127.0.0.1/32,::1' },
  });
  const { workspaceId } = await t.workspace('Sign-in guard workspace');
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
});
afterAll(async () => t?.close());

async function authFailureRefusals(): Promise<number> {
  const text = await (await t.fetch(`${t.server.origin}/metrics`)).text();
  return parsePrometheusText(text).value('tessera_rate_limited_total', { limiter: 'authFailure' }) ?? 0;
}

it('refuses wrong keys at the sign-in form past the failed-authentication limit, sharing it with the API', async () => {
  const origin = t.server.publicOrigin;
  const { browser, uid } = await openSignIn(t);
  const tryKey = (value: string) => browser.post(`${origin}/oauth/sign-in/${uid}/key`, { key: value });
  const before = await authFailureRefusals();

  for (let i = 0; i < limit; i++) expect((await tryKey(`tsr_wrong_${i}`)).status).toBe(401);
  const refused = await tryKey('tsr_wrong_again');
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await refused.text()).toContain('Too many failed sign-ins from this address');
  // The same count as the API's: a wrong key there is refused from this address now too.
  expect((await t.api('/me', { key: 'tsr_wrong_api' })).status).toBe(429);
  expect((await authFailureRefusals()) - before).toBe(2);

  // A working key is not refused for it: the sign-in goes on to the consent page.
  const signedIn = await browser.follow(await tryKey(key));
  expect(signedIn.res.status).toBe(200);
  expect(await signedIn.res.text()).toContain('name="scope"');
});
