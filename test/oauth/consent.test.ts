// The consent page of the assistant sign-in (issue 24, item 6), over HTTPS as a browser meets it:
// each scope in words (area and meaning) grouped by kind; only what the client asked for ticked,
// and when it asked for nothing the reads without personal data (never a write, never
// people:read); what the key does not hold named, not offered; the client's name and the host it
// sends the browser back to on both pages; and the token carries exactly what was ticked.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeScope } from '../../core/platform/scope-descriptions';
import { readsWithoutPersonalData, type Scope, scopes } from '../../core/platform/scopes';
import { startTestServer, type TestServer } from '../support/server';
import {
  authorizeUrl,
  challengeOf,
  checkboxesOf,
  claimsOf,
  consent,
  exchangeCode,
  openConsent,
  registerClient,
} from '../support/sign-in';

let t: TestServer;
let workspaceId: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Consent workspace', true));
});
afterAll(async () => t.close());

const verifier = randomBytes(32).toString('base64url');

/** An authorization request asking for `scope` (none at all when null). */
function request(clientId: string, scope: string | null) {
  return authorizeUrl(t, clientId, {
    ...(scope === null ? {} : { scope }),
    resource: `${t.server.publicOrigin}/mcp`,
    code_challenge: challengeOf(verifier),
    code_challenge_method: 'S256',
  });
}

const keyWith = async (held: Scope[]) => (await t.key({ workspaceId, scopes: held, expires: 'never' })).key;
const ticked = (html: string) =>
  checkboxesOf(html)
    .filter((c) => c.ticked)
    .map((c) => c.scope);
const offered = (html: string) => checkboxesOf(html).map((c) => c.scope);
/** In the scope table's order (the page groups them by kind). */
const inOrder = (list: string[]) => scopes.filter((s) => list.includes(s));

describe('what starts ticked', () => {
  const held: Scope[] = [
    'events:read',
    'events:write',
    'orders:read',
    'attendees:read',
    'people:read',
    'webhooks:write',
  ];

  it('ticks only what the client asked for, and offers every scope of the key', async () => {
    const clientId = await registerClient(t);
    const page = await openConsent(
      t,
      request(clientId, 'offline_access events:read webhooks:write'),
      await keyWith(held),
    );
    // webhooks:read comes with webhooks:write, and may be given on its own.
    expect(inOrder(offered(page.html))).toEqual(inOrder([...held, 'webhooks:read']));
    expect(inOrder(ticked(page.html))).toEqual(['events:read', 'webhooks:write']);
  });

  it('ticks the reads without personal data when the client asked for nothing, never a write or people:read', async () => {
    const key = await keyWith(held);
    for (const scope of [null, '', 'offline_access']) {
      const clientId = await registerClient(t);
      const page = await openConsent(t, request(clientId, scope), key);
      expect(inOrder(offered(page.html)), String(scope)).toEqual(inOrder([...held, 'webhooks:read']));
      expect(ticked(page.html), String(scope)).toEqual([
        'events:read',
        'orders:read',
        'attendees:read',
        'webhooks:read',
      ]);
      expect(page.html).toContain('did not say what it needs');
    }
    expect(readsWithoutPersonalData).not.toContain('people:read');
    expect(readsWithoutPersonalData.every((s) => s.endsWith(':read'))).toBe(true);
  });

  it('gives what is ticked when the client asked for nothing: the token names it', async () => {
    const clientId = await registerClient(t);
    const page = await openConsent(t, request(clientId, 'offline_access'), await keyWith(held));
    const back = await consent(t, page, ticked(page.html));
    const issued = await exchangeCode(t, { code: back.searchParams.get('code')!, clientId, verifier });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    // The answer's scope tells the client what it got (RFC 6749 §5.1), though it named none.
    expect(issued.body.scope).toBe('events:read orders:read attendees:read webhooks:read');
    expect(claimsOf(issued.body.access_token).scope).toBe(
      'events:read orders:read attendees:read webhooks:read',
    );
    expect(issued.body.refresh_token).toEqual(expect.any(String));
  });

  it('gives a scope ticked beyond what the client asked for, and not one unticked', async () => {
    const clientId = await registerClient(t);
    const page = await openConsent(t, request(clientId, 'events:read attendees:read'), await keyWith(held));
    const back = await consent(t, page, ['events:read', 'orders:read']);
    const issued = await exchangeCode(t, { code: back.searchParams.get('code')!, clientId, verifier });
    expect(claimsOf(issued.body.access_token).scope).toBe('events:read orders:read');
  });

  it('settles openid as refused: consent is asked once and no ID token is issued', async () => {
    const clientId = await registerClient(t);
    const page = await openConsent(
      t,
      request(clientId, 'openid offline_access events:read'),
      await keyWith(held),
    );
    const back = await consent(t, page, ['events:read']);
    const issued = await exchangeCode(t, { code: back.searchParams.get('code')!, clientId, verifier });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.body.id_token).toBeUndefined();
    expect(issued.body.scope).toBe('events:read');
  });

  it('offers the read a write of the key includes on its own, and the token reads with it alone', async () => {
    const clientId = await registerClient(t);
    const page = await openConsent(t, request(clientId, 'events:read'), await keyWith(['events:write']));
    expect(inOrder(offered(page.html))).toEqual(['events:read', 'events:write']);
    expect(ticked(page.html)).toEqual(['events:read']);
    expect(page.html).not.toContain('class="unheld"');
    const back = await consent(t, page, ['events:read']);
    const issued = await exchangeCode(t, { code: back.searchParams.get('code')!, clientId, verifier });
    expect(issued.body.scope).toBe('events:read');
    const client = await t.mcp(issued.body.access_token);
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      expect(tools).toContain('list_events');
      expect(tools).not.toContain('create_event');
      const listed = await client.callTool({ name: 'list_events', arguments: {} });
      expect(listed.isError).toBeFalsy();
      const refused = await client.callTool({ name: 'create_event', arguments: {} });
      expect(JSON.stringify(refused.structuredContent ?? refused.content)).toContain('missingScope');
    } finally {
      await client.close();
    }
  });

  it('offers nothing the key does not hold: what was asked for beyond it is named, not offered', async () => {
    const clientId = await registerClient(t);
    const page = await openConsent(
      t,
      request(clientId, 'events:read people:read tickets:write'),
      await keyWith(['events:read', 'orders:read']),
    );
    expect(offered(page.html)).toEqual(['events:read', 'orders:read']);
    expect(ticked(page.html)).toEqual(['events:read']);
    const unheld = /<p class="unheld">([\s\S]*?)<\/p>/.exec(page.html)?.[1] ?? '';
    expect(unheld).toContain('does not hold');
    expect(unheld).toContain('<code>people:read</code>');
    expect(unheld).toContain('<code>tickets:write</code>');
    expect(unheld).not.toContain('events:read');
  });
});

describe('what the page says', () => {
  it('names every scope by area and meaning, grouped as see, change and personal data', async () => {
    const clientId = await registerClient(t);
    const page = await openConsent(t, request(clientId, 'events:read'), await keyWith([...scopes]));
    const groups = [
      ...page.html.matchAll(/<fieldset class="scopes"><legend>([^<]+)<\/legend>([\s\S]*?)<\/fieldset>/g),
    ];
    expect(groups.map((g) => g[1])).toEqual(['See', 'Change', 'Personal data']);
    const inGroup = (i: number) => offered(groups[i]![2]!);
    expect(inGroup(0)).toEqual(scopes.filter((s) => s.endsWith(':read') && s !== 'people:read'));
    expect(inGroup(1)).toEqual(scopes.filter((s) => s.endsWith(':write')));
    expect(inGroup(2)).toEqual(['people:read']);
    for (const scope of scopes) {
      const { area, meaning } = describeScope(scope);
      const label = new RegExp(
        `<label for="scope-${scope.replace(':', '-')}"><strong>([^<]+)</strong>: ([^<]+)`,
      ).exec(page.html);
      expect(
        label?.slice(1).map((s) => s.trim()),
        scope,
      ).toEqual([area, meaning]);
    }
    expect(describeScope('attendees:read')).toMatchObject({ area: 'Attendees', kind: 'read' });
  });

  it('shows the client’s name and the host it sends the browser back to, on both pages', async () => {
    const loopback = await registerClient(t, { client_name: 'Desk Assistant' });
    const page = await openConsent(t, request(loopback, 'events:read'), await keyWith(['events:read']));
    for (const html of [page.signInHtml, page.html]) {
      expect(html).toContain('Desk Assistant');
      expect(html).toContain('<code>127.0.0.1:33418</code> (an app on this computer)');
    }
    const web = await registerClient(t, {
      client_name: 'Web Assistant',
      redirect_uris: ['https://assistant.example/oauth/back'],
    });
    const url = new URL(request(web, 'events:read'));
    url.searchParams.set('redirect_uri', 'https://assistant.example/oauth/back');
    const other = await openConsent(t, url.toString(), await keyWith(['events:read']));
    for (const html of [other.signInHtml, other.html]) {
      expect(html).toContain('Web Assistant');
      expect(html).toContain('<code>assistant.example</code>');
    }
  });
});
