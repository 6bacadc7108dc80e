// The pages' forms refuse posts another site's page sent (issue 50): a browser that says a post is
// cross-site (Sec-Fetch-Site), or names a foreign Origin, is refused with a 403 page linking back
// to the form; one that says neither (an old browser, curl) must send back the form token its page
// gave it (signed, bound to the page and the client address, two hours). Nothing is registered and
// no mail queued when refused; the service's own page still registers. The assistant sign-in's
// forms are guarded alike; the API, which takes keys and no cookies, is not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formToken, formTokenField } from '../../core/platform/form-tokens';
import { crossSiteVerdict } from '../../src/http/cross-site-forms';
import { eventBody } from '../support/fixtures';
import { formTokenOf } from '../support/page-forms';
import { MutableClock, startTestServer, type TestServer } from '../support/server';
import { openSignIn } from '../support/sign-in';
import { formPerson, formTicketType, publishedEvent } from '../support/sign-up';

const clock = new MutableClock();
let t: TestServer;
let key: string;
let event: { eventId: string; slug: string };
let typeId: string;

beforeAll(async () => {
  // E-mail on, its sender never run: what a registration queues stays to be counted.
  t = await startTestServer({
    clock,
    scheduledJobs: false,
    env: {
      TESSERA_SMTP_URL: 'smtp://127.0.0.1:9',
      TESSERA_MAIL_FROM: 'tickets@tessera.test',
      TESSERA_SIGN_UP_ADDRESS_LIMIT: '100',
    },
  });
  const { workspaceId } = await t.workspace('Cross-site forms');
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  event = await publishedEvent(t, key);
  typeId = await formTicketType(t, event.eventId, { name: 'Seat', capacity: 100 });
});
afterAll(async () => t?.close());

const db = () => t.server.services.db;
const attendees = async () =>
  (await db().selectFrom('attendees').select('id').where('event_id', '=', event.eventId).execute()).length;
const queuedMail = async () =>
  (await db().selectFrom('mail_messages').select('id').where('event_id', '=', event.eventId).execute())
    .length;

/** The form's own token, as its page gives it to this client. */
async function pageToken(): Promise<string> {
  return formTokenOf(await (await t.fetch(`${t.server.origin}/e/${event.slug}`)).text())!;
}

/** Posts a registration of one person with these headers (and the token, when given). */
async function post(headers: Record<string, string>, token?: string) {
  const body = new URLSearchParams({ [`qty.${typeId}`]: '1', ...formPerson(0), action: 'register' });
  if (token !== undefined) body.set(formTokenField, token);
  const res = await t.fetch(`${t.server.origin}/e/${event.slug}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: body.toString(),
    redirect: 'manual',
  });
  return { status: res.status, text: await res.text(), cacheControl: res.headers.get('cache-control') };
}

/** Expects the post refused with 403, its page saying so and linking back; nothing registered or queued. */
async function expectRefused(answer: Awaited<ReturnType<typeof post>>, says: string) {
  const before = { attendees: await attendees(), mail: await queuedMail() };
  expect(answer.status, answer.text.slice(0, 300)).toBe(403);
  expect(answer.text).toContain(says);
  expect(answer.text).toContain('Nothing was saved.');
  expect(answer.text).toContain(`<a href="/e/${event.slug}">Back to the form</a>`);
  expect(answer.cacheControl).toBe('no-store');
  expect({ attendees: await attendees(), mail: await queuedMail() }).toEqual(before);
}

/** The status a one-ticket registration posted to `url` with these headers (and no form token) answers. */
async function registerStatus(s: TestServer, url: string, type: string, headers: Record<string, string>) {
  const res = await s.fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ [`qty.${type}`]: '1', ...formPerson(0), action: 'register' }).toString(),
    redirect: 'manual',
  });
  return res.status;
}

describe('a post to the public form', () => {
  it('refuses one another site sent (Sec-Fetch-Site: cross-site) with 403, even carrying a valid token', async () => {
    const before = { attendees: await attendees(), mail: await queuedMail() };
    await expectRefused(
      await post({ 'sec-fetch-site': 'cross-site', origin: 'https://attacker.example' }, await pageToken()),
      'This form was sent from another site',
    );
    await expectRefused(await post({ 'sec-fetch-site': 'cross-site' }), 'sent from another site');
    expect({ attendees: await attendees(), mail: await queuedMail() }).toEqual(before);
  });

  it('refuses one from another origin of the same site (same-site, another port) with 403', async () => {
    const other = new URL(t.server.origin);
    other.port = String(Number(other.port) + 1);
    await expectRefused(
      await post({ 'sec-fetch-site': 'same-site', origin: other.origin }),
      'sent from another site',
    );
    await expectRefused(await post({ 'sec-fetch-site': 'same-site' }), 'sent from another site');
  });

  it('refuses a foreign Origin (and Origin: null) from a browser that sends no Sec-Fetch-Site, with 403', async () => {
    await expectRefused(
      await post({ origin: 'https://attacker.example' }, await pageToken()),
      'another site',
    );
    await expectRefused(await post({ origin: 'null' }, await pageToken()), 'another site');
  });

  it('refuses one naming neither without its token, with a forged one, one of another page or another address, one past two hours: 403', async () => {
    const secret = t.server.services.secrets.formTokenKey;
    const now = clock.now();
    await expectRefused(await post({}), 'This form could not be verified');
    await expectRefused(await post({}, ''), 'could not be verified');
    await expectRefused(await post({}, `${Math.floor(now.getTime() / 1000)}.${'A'.repeat(43)}`), 'verified');
    const forOtherPage = formToken(secret, { page: '/e/another-event', client: '127.0.0.1' }, now);
    await expectRefused(await post({}, forOtherPage), 'could not be verified');
    // Fetched by another site's server and handed to its visitors: bound to the address it was given to.
    const forOtherAddress = formToken(secret, { page: `/e/${event.slug}`, client: '203.0.113.7' }, now);
    await expectRefused(await post({}, forOtherAddress), 'could not be verified');
    const old = await pageToken();
    clock.advance(2 * 60 * 60 * 1000 + 1000);
    try {
      await expectRefused(await post({}, old), 'This form was open too long');
    } finally {
      clock.advance(-(2 * 60 * 60 * 1000 + 1000));
    }
  });

  it('accepts one naming neither that carries the token its page gave (303), queuing its mail', async () => {
    const before = { attendees: await attendees(), mail: await queuedMail() };
    const answer = await post({}, await pageToken());
    expect(answer.status, answer.text.slice(0, 500)).toBe(303);
    expect(await attendees()).toBe(before.attendees + 1);
    expect(await queuedMail()).toBeGreaterThan(before.mail);
  });

  it("accepts one from the service's own page without a token: Sec-Fetch-Site same-origin, or its Origin alone", async () => {
    const before = await attendees();
    const origin = t.server.publicOrigin;
    expect((await post({ 'sec-fetch-site': 'same-origin', origin })).status).toBe(303);
    expect((await post({ origin })).status).toBe(303);
    // Typed in the address bar or opened from a bookmark: no other site had a hand in it.
    expect((await post({ 'sec-fetch-site': 'none' })).status).toBe(303);
    expect(await attendees()).toBe(before + 3);
  });
});

describe('the check, as a rule', () => {
  const own = new Set(['https://tickets.example.org']);
  it.each([
    ['cross-site', '', 'refused'],
    ['cross-site', 'https://tickets.example.org', 'refused'],
    ['same-site', 'https://www.example.org', 'refused'],
    ['same-site', '', 'refused'],
    ['same-site', 'https://tickets.example.org', 'allowed'],
    ['same-origin', 'https://tickets.example.org', 'allowed'],
    ['same-origin', '', 'allowed'],
    ['none', '', 'allowed'],
    ['', 'https://attacker.example', 'refused'],
    ['', 'null', 'refused'],
    ['', 'https://tickets.example.org', 'allowed'],
    ['', '', 'needsToken'],
    ['something-new', '', 'refused'],
  ])('Sec-Fetch-Site %j with Origin %j is %s', (site, origin, verdict) => {
    expect(crossSiteVerdict(site, origin, own)).toBe(verdict);
  });
});

describe("the service's own origins", () => {
  it('are the public URL and the address the request was sent to (--public-url)', async () => {
    const s = await startTestServer({ publicUrl: 'https://events.example.org' });
    try {
      const { workspaceId } = await s.workspace('Public URL');
      const k = (await s.key({ workspaceId, preset: 'everything', expires: 'never' })).key;
      const e = await publishedEvent(s, k);
      const type = await formTicketType(s, e.eventId);
      const send = (origin: string) =>
        registerStatus(s, `${s.server.origin}/e/${e.slug}/register`, type, { origin });
      expect(await send('https://events.example.org')).toBe(303);
      expect(await send(s.server.origin)).toBe(303);
      expect(await send('https://attacker.example')).toBe(403);
    } finally {
      await s.close();
    }
  });

  it('behind a trusted proxy (--trust-proxy) are the host it forwards', async () => {
    const s = await startTestServer({ trustProxy: true });
    try {
      const { workspaceId } = await s.workspace('Proxied');
      const k = (await s.key({ workspaceId, preset: 'everything', expires: 'never' })).key;
      // Its API too is reached through the proxy, over HTTPS as the proxy says.
      const proxy = { 'x-forwarded-proto': 'https' };
      const made = await s.api('/events', { key: k, method: 'POST', body: eventBody(), headers: proxy });
      const e = { eventId: made.body.eventId as string, slug: made.body.slug as string };
      const status = { key: k, method: 'PUT', body: { status: 'published' }, headers: proxy };
      expect((await s.api(`/events/${e.eventId}/status`, status)).status).toBe(200);
      const type = await formTicketType(s, e.eventId);
      const base = s.server.origin.replace('https:', 'http:');
      const send = (origin: string) =>
        registerStatus(s, `${base}/e/${e.slug}/register`, type, {
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'events.example.org',
          origin,
        });
      expect(await send('https://events.example.org')).toBe(303);
      expect(await send('https://attacker.example')).toBe(403);
    } finally {
      await s.close();
    }
  });
});

describe('the assistant sign-in', () => {
  it('refuses a key posted by another site (403, nobody signed in) and takes it from its own page', async () => {
    const origin = t.server.publicOrigin;
    const { browser, uid, html } = await openSignIn(t);
    const token = formTokenOf(html)!;
    const sendKey = (headers: Record<string, string>, form: Record<string, string>) =>
      browser.get(`${origin}/oauth/sign-in/${uid}/key`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(form).toString(),
      });
    const crossSite = await sendKey(
      { 'sec-fetch-site': 'cross-site', origin: 'https://attacker.example' },
      { key },
    );
    expect(crossSite.status).toBe(403);
    expect(await crossSite.text()).toContain(`<a href="/oauth/sign-in/${uid}">Back to the form</a>`);
    expect((await sendKey({}, { key })).status).toBe(403);
    // Still at the sign-in: the consent page is not reached.
    expect(await (await browser.get(`${origin}/oauth/sign-in/${uid}`)).text()).toContain(
      'An API key of your workspace',
    );
    const signedIn = await sendKey({}, { key, [formTokenField]: token });
    expect(signedIn.status).toBe(303);
  });
});

describe('the API', () => {
  it('is left to its keys: a foreign Origin on a POST is answered as ever (201)', async () => {
    const made = await t.api('/events', {
      key,
      method: 'POST',
      body: eventBody(),
      headers: { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  });
});
