// The assistant sign-in as an organiser meets it: an authorization request opened in headless
// Chromium (Debian's `chromium`, driven by playwright-core) shows the sign-in page naming the
// assistant and where it sends the browser back to; an API key signs in; the consent page lists
// that key's scopes in words, grouped by kind, those asked for ticked; unticking one grants less;
// Allow sends the browser back with a code the token endpoint turns into a token with exactly the
// scopes left ticked. The consent page is also checked as a person uses it: a label on every
// checkbox, keyboard alone (Tab, Space, Tab, Enter), text contrast of at least 4.5:1, nothing wider
// than the window at 390 and 1280 px. Skips, saying why, where Chromium is not installed (CI
// installs it). UPDATE_SCREENSHOTS=1 writes the screenshots in docs/.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../../core/platform/scopes';
import { axeViolations } from '../support/axe';
import { launchChromium } from '../support/chromium';
import { lowContrastText } from '../support/contrast';
import { startTestServer, type TestServer } from '../support/server';
import { challengeOf, claimsOf, exchangeCode, redirectUri } from '../support/sign-in';

// Globals of the page the functions given to evaluate run in (the project compiles without DOM types).
declare const document: any;
declare const window: any;
declare function getComputedStyle(element: unknown): any;

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const installed = existsSync(executablePath);
if (!installed)
  console.warn(
    `Skipping the sign-in browser test: no Chromium at ${executablePath} (apt-get install chromium).`,
  );

const root = resolve(import.meta.dirname, '../..');
const shots = process.env.UPDATE_SCREENSHOTS ? join(root, 'docs') : join(root, '.tmp');

describe.skipIf(!installed)('the sign-in and consent pages in a browser', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let origin: string;
  let workspaceId: string;
  const callbacks: string[] = [];

  beforeAll(async () => {
    t = await startTestServer();
    origin = t.server.publicOrigin;
    ({ workspaceId } = await t.workspace('Browser sign-in', true));
    browser = await launchChromium();
    mkdirSync(shots, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A browser of its own (no session from another test), whose assistant's address answers here. */
  async function freshPage() {
    const context = await browser.newContext({
      ignoreHTTPSErrors: true,
      viewport: { width: 1280, height: 800 },
    });
    page = await context.newPage();
    // The assistant's redirect address: answered here, as the assistant's own listener would.
    await page.route(`${redirectUri}**`, async (route) => {
      callbacks.push(route.request().url());
      await route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: '<p>Signed in; you may close this window.</p>',
      });
    });
  }

  /** A registered client's authorization request asking for `scope`, and its PKCE verifier. */
  async function authorization(clientName: string, scope: string) {
    const registered = await t.fetch(`${origin}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: clientName,
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
      }),
    });
    const clientId = String(((await registered.json()) as { client_id: string }).client_id);
    const verifier = randomBytes(32).toString('base64url');
    const url = new URL(`${origin}/oauth/authorize`);
    url.search = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope,
      resource: `${origin}/mcp`,
      code_challenge: challengeOf(verifier),
      code_challenge_method: 'S256',
      state: 'browser-state',
    }).toString();
    return { clientId, verifier, url: url.toString() };
  }

  /** Opens the authorization request and signs in with a key holding `scopes`: the consent page. */
  async function toConsent(url: string, scopes: Scope[], screenshot?: string) {
    const { key } = await t.key({ workspaceId, scopes, expires: 'never' });
    await freshPage();
    await page.goto(url);
    await page.locator('#key').waitFor({ timeout: 30_000 });
    if (screenshot) {
      await page.screenshot({ path: join(shots, screenshot) });
      // The sign-in page fits a phone too, key field and all.
      await page.setViewportSize({ width: 390, height: 844 });
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      expect(await lowContrastText(page)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await page.fill('#key', key);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Allow' }).waitFor({ timeout: 30_000 });
  }

  /** Waits for the redirect back to the assistant and exchanges its code: the access token's claims. */
  async function tokenBack(clientId: string, verifier: string) {
    const before = callbacks.length;
    await expect.poll(() => callbacks.length, { timeout: 30_000 }).toBe(before + 1);
    const back = new URL(callbacks.at(-1)!);
    expect(back.searchParams.get('state')).toBe('browser-state');
    const issued = await exchangeCode(t, {
      code: back.searchParams.get('code')!,
      clientId,
      verifier,
      resource: `${origin}/mcp`,
    });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    return claimsOf(issued.body.access_token);
  }

  const box = (scope: string) => page.locator(`input[name="scope"][value="${scope}"]`);

  it('signs in with an API key and grants only the scopes left ticked', async () => {
    const { clientId, verifier, url } = await authorization(
      'Browser Assistant',
      'offline_access events:read orders:read',
    );
    await toConsent(url, ['events:read', 'orders:read', 'attendees:read'], 'sign-in.png');
    const main = String(await page.locator('main').textContent());
    expect(main).toContain('Browser Assistant');
    expect(main).toContain('127.0.0.1:33418 (an app on this computer)');
    // The key's scopes are offered; those asked for are ticked; nothing the key lacks is offered.
    expect(await box('events:read').isChecked()).toBe(true);
    expect(await box('orders:read').isChecked()).toBe(true);
    expect(await box('attendees:read').isChecked()).toBe(false);
    expect(await box('people:read').count()).toBe(0);

    await page.getByRole('checkbox', { name: /^Orders: see orders/ }).uncheck();
    await page.getByRole('button', { name: 'Allow' }).click();
    expect(await tokenBack(clientId, verifier)).toMatchObject({ aud: `${origin}/mcp`, scope: 'events:read' });
  });

  it('sends the browser back with access_denied when the organiser denies', async () => {
    const { url } = await authorization('Denied Assistant', 'events:read');
    await toConsent(url, ['events:read']);
    const before = callbacks.length;
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect.poll(() => callbacks.length, { timeout: 30_000 }).toBe(before + 1);
    const back = new URL(callbacks.at(-1)!);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('reads well at 390 and 1280 px, labels every checkbox, and is usable by keyboard alone', async () => {
    // The assistant names no scope: the reads without personal data start ticked.
    const { clientId, verifier, url } = await authorization('Claude', 'offline_access');
    await toConsent(url, [
      'events:read',
      'events:write',
      'tickets:read',
      'orders:read',
      'attendees:read',
      'attendees:write',
      'checkins:read',
      'program:read',
      'webhooks:write',
      'people:read',
    ]);
    const ticked = await page
      .locator('input[name="scope"]:checked')
      .evaluateAll((e) => e.map((i) => (i as any).value));
    expect(ticked).toEqual([
      'events:read',
      'tickets:read',
      'orders:read',
      'attendees:read',
      'checkins:read',
      'program:read',
      'webhooks:read',
    ]);

    // Every checkbox has a label naming its area and meaning.
    const names = await page
      .locator('input[type="checkbox"]')
      .evaluateAll((inputs) =>
        inputs.map((i) => [...((i as any).labels ?? [])].map((l) => l.textContent?.trim()).join(' ')),
      );
    // The key's ten scopes, and webhooks:read, which its webhooks:write includes.
    expect(names.length).toBe(11);
    for (const name of names) expect(name).toMatch(/^[A-Z][\w -]+: [a-z]/);
    expect(await page.getByRole('checkbox', { name: /^People: see names/ }).isChecked()).toBe(false);
    expect(await page.getByRole('group', { name: 'Personal data' }).getByRole('checkbox').count()).toBe(1);

    for (const [width, height, file] of [
      [1280, 800, 'sign-in-consent.png'],
      [390, 844, 'sign-in-consent-phone.png'],
    ] as const) {
      await page.setViewportSize({ width, height });
      expect(await lowContrastText(page), `${width} px`).toEqual([]);
      expect(await axeViolations(page), `${width} px`).toEqual([]);
      const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(wider, `${width} px: wider than the window`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(shots, file), fullPage: true });
    }

    // Keyboard alone: Tab to the first checkbox (events:read, ticked), Space unticks it, Tab on to
    // Allow, Enter completes the sign-in.
    await page.setViewportSize({ width: 1280, height: 800 });
    const focused = () =>
      page.evaluate(() => {
        const e = document.activeElement as any;
        return {
          tag: e?.tagName,
          type: e?.type,
          value: e?.value,
          text: e?.textContent,
          outline: e ? getComputedStyle(e).outlineStyle : '',
        };
      });
    for (let i = 0; i < 20 && (await focused()).type !== 'checkbox'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ type: 'checkbox', value: 'events:read' });
    expect((await focused()).outline).not.toBe('none');
    await page.keyboard.press('Space');
    expect(await box('events:read').isChecked()).toBe(false);
    for (let i = 0; i < 20 && (await focused()).text !== 'Allow'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ tag: 'BUTTON', text: 'Allow' });
    await page.keyboard.press('Enter');
    const claims = await tokenBack(clientId, verifier);
    expect(String(claims.scope).split(' ')).toEqual([
      'tickets:read',
      'orders:read',
      'attendees:read',
      'checkins:read',
      'program:read',
      'webhooks:read',
    ]);
  });
});
