// The browser side of the assistant sign-in, for tests: a cookie jar over the test server's
// fetch, and the sign-in and consent pages filled in as an organiser would.
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { sameOriginHeaders } from './page-forms';
import type { TestServer } from './server';

/** A browser's cookies for the server's origin, kept across requests. */
export class Browser {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly t: TestServer) {}
  async get(url: string, init: RequestInit = {}): Promise<Response> {
    const res = await this.t.fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      this.cookies.set(name!.trim(), value.join('='));
    }
    return res;
  }
  /** A form posted from a page of the server, naming its origin as a current browser does. */
  post(url: string, form: Record<string, string | string[]>): Promise<Response> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const one of [v].flat()) body.append(k, one);
    return this.get(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...sameOriginHeaders(new URL(url).origin),
      },
      body: body.toString(),
    });
  }
  /** Follows redirects on this origin; answers the last answer and where it pointed (a redirect elsewhere). */
  async follow(res: Response): Promise<{ res: Response; url: string }> {
    const origin = this.t.server.publicOrigin;
    let current = res;
    let url = current.url;
    while (current.status >= 300 && current.status < 400) {
      url = new URL(current.headers.get('location')!, origin).toString();
      if (!url.startsWith(origin)) return { res: current, url };
      current = await this.get(url);
    }
    return { res: current, url };
  }
}

export const redirectUri = 'http://127.0.0.1:33418/callback';

/** A PKCE challenge (S256) for a verifier. */
export const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** A consent page as the server answered it: its HTML, the sign-in's uid and the browser holding its cookies. */
export interface ConsentPage {
  browser: Browser;
  uid: string;
  html: string;
  /** The first page's HTML (the sign-in page). */
  signInHtml: string;
}

/** The sign-in page of a new authorization (a registered client asking for events:read on /mcp). */
export async function openSignIn(t: TestServer) {
  const clientId = await registerClient(t);
  const browser = new Browser(t);
  const start = await browser.follow(
    await browser.get(
      authorizeUrl(t, clientId, {
        scope: 'events:read',
        resource: `${t.server.publicOrigin}/mcp`,
        code_challenge: challengeOf('a-verifier-of-enough-length-for-pkce-0123456789'),
        code_challenge_method: 'S256',
      }),
    ),
  );
  const uid = /\/oauth\/sign-in\/([^/]+)/.exec(start.url)![1]!;
  return { browser, uid, html: await start.res.text() };
}

/** From an authorization request through the sign-in page (an API key, or the demonstration button) to the consent page. */
export async function openConsent(
  t: TestServer,
  authorizeUrl: string,
  key: string | 'demonstration',
): Promise<ConsentPage> {
  const origin = t.server.publicOrigin;
  const browser = new Browser(t);
  const start = await browser.follow(await browser.get(authorizeUrl));
  expect(start.url).toMatch(/\/oauth\/sign-in\//);
  const signInHtml = await start.res.text();
  const uid = /\/oauth\/sign-in\/([^/]+)/.exec(start.url)![1]!;
  const afterKey = await browser.follow(
    key === 'demonstration'
      ? await browser.post(`${origin}/oauth/sign-in/${uid}/demo`, {})
      : await browser.post(`${origin}/oauth/sign-in/${uid}/key`, { key }),
  );
  const html = await afterKey.res.text();
  const consentUid = /\/oauth\/sign-in\/([^/]+)\/consent/.exec(html)?.[1];
  if (!consentUid) throw new Error(`No consent page: ${afterKey.url} ${html.slice(0, 1000)}`);
  return { browser, uid: consentUid, html, signInHtml };
}

/** The consent page's checkboxes: each scope offered and whether it starts ticked. */
export function checkboxesOf(html: string): { scope: string; ticked: boolean }[] {
  return [...html.matchAll(/<input type="checkbox" name="scope" value="([^"]+)"[^>]*>/g)].map((m) => ({
    scope: m[1]!,
    ticked: / checked\b/.test(m[0]),
  }));
}

/** Answers the consent page with the scopes ticked; answers the redirect's address. */
export async function consent(t: TestServer, page: ConsentPage, scopes: string[]): Promise<URL> {
  const done = await page.browser.follow(
    await page.browser.post(`${t.server.publicOrigin}/oauth/sign-in/${page.uid}/consent`, { scope: scopes }),
  );
  if (!done.url.startsWith(redirectUri))
    throw new Error(`${done.url}: ${(await done.res.text()).slice(0, 3000)}`);
  return new URL(done.url);
}

/**
 * From an authorization request to the redirect back: the sign-in page (an API key, or the
 * demonstration button), then consent with the scopes ticked. Answers the redirect's address.
 */
export async function signInAndConsent(
  t: TestServer,
  authorizeUrl: string,
  options: { key: string | 'demonstration'; scopes: string[]; clientName: string },
): Promise<URL> {
  const page = await openConsent(t, authorizeUrl, options.key);
  expect(page.signInHtml).toContain(options.clientName);
  expect(page.html, page.html.slice(0, 500)).toContain(`What may ${options.clientName} do?`);
  return consent(t, page, options.scopes);
}

/** A client registration (RFC 7591) of a public client redirecting to redirectUri: status and body. */
export async function registrationRequest(t: TestServer, metadata: Record<string, unknown> = {}) {
  const res = await t.fetch(`${t.server.publicOrigin}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Test Assistant',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...metadata,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** Registers a client (named Test Assistant unless told); answers its client_id. */
export async function registerClient(t: TestServer, metadata: Record<string, unknown> = {}): Promise<string> {
  const { status, body } = await registrationRequest(t, metadata);
  expect(status, JSON.stringify(body)).toBe(201);
  return String(body.client_id);
}

/** An authorization request of a client: code flow to redirectUri, and what is given. */
export function authorizeUrl(t: TestServer, clientId: string, params: Record<string, string>): string {
  const url = new URL(`${t.server.publicOrigin}/oauth/authorize`);
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    ...params,
  }).toString();
  return url.toString();
}

/** A request to the token endpoint: its status and JSON body. */
export async function tokenRequest(t: TestServer, form: Record<string, string>) {
  const res = await t.fetch(`${t.server.publicOrigin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** The code exchange of a public client with its PKCE verifier (and the resource, when named). */
export function exchangeCode(
  t: TestServer,
  exchange: { code: string; clientId: string; verifier: string; resource?: string },
) {
  return tokenRequest(t, {
    grant_type: 'authorization_code',
    code: exchange.code,
    redirect_uri: redirectUri,
    client_id: exchange.clientId,
    code_verifier: exchange.verifier,
    ...(exchange.resource ? { resource: exchange.resource } : {}),
  });
}

/** The claims of a JWT access token, unverified (the server verifies; tests read). */
export const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

/** The whole sign-in of a registered client, with PKCE (S256) and offline_access: answers the code it receives. */
export async function codeFor(
  t: TestServer,
  options: { clientId: string; key: string; scopes: string[]; verifier: string },
): Promise<string> {
  const url = authorizeUrl(t, options.clientId, {
    scope: ['offline_access', ...options.scopes].join(' '),
    resource: `${t.server.publicOrigin}/mcp`,
    code_challenge: challengeOf(options.verifier),
    code_challenge_method: 'S256',
  });
  const back = await signInAndConsent(t, url, {
    key: options.key,
    scopes: options.scopes,
    clientName: 'Test Assistant',
  });
  return back.searchParams.get('code')!;
}
