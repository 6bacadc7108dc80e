// The assistant sign-in as an organiser meets it: an authorization request opened in headless
// Chromium (Debian's `chromium`, driven by playwright-core) shows the sign-in page naming the
// assistant; an API key signs in; the consent page lists that key's scopes with those asked for
// ticked; unticking one grants less; Allow sends the browser back to the assistant with a code
// that the token endpoint turns into a token with exactly the scopes left ticked. Skips, saying
// why, where Chromium is not installed (CI installs it). UPDATE_SCREENSHOTS=1 writes the
// screenshots in docs/.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';
import { challengeOf, claimsOf, exchangeCode, redirectUri } from '../support/sign-in';

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
  const callbacks: string[] = [];

  beforeAll(async () => {
    t = await startTestServer();
    origin = t.server.publicOrigin;
    browser = await chromium.launch({
      executablePath,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    const context = await browser.newContext({
      ignoreHTTPSErrors: true,
      viewport: { width: 1000, height: 760 },
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
    mkdirSync(shots, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('signs in with an API key and grants only the scopes left ticked', async () => {
    const { workspaceId } = await t.workspace('Browser sign-in', true);
    const { key, apiKeyId } = await t.key({
      workspaceId,
      scopes: ['events:read', 'orders:read', 'attendees:read'],
      expires: 'never',
    });
    const registered = await t.fetch(`${origin}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Browser Assistant',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
      }),
    });
    const clientId = String(((await registered.json()) as { client_id: string }).client_id);
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL(`${origin}/oauth/authorize`);
    authorize.search = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'offline_access events:read orders:read',
      resource: `${origin}/mcp`,
      code_challenge: challengeOf(verifier),
      code_challenge_method: 'S256',
      state: 'browser-state',
    }).toString();

    await page.goto(authorize.toString());
    await page.locator('#key').waitFor({ timeout: 30_000 });
    expect(await page.locator('main').textContent()).toContain('Browser Assistant');
    await page.screenshot({ path: join(shots, 'sign-in.png') });

    await page.fill('#key', key);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Allow' }).waitFor({ timeout: 30_000 });
    const events = page.locator('input[name="scope"][value="events:read"]');
    const orders = page.locator('input[name="scope"][value="orders:read"]');
    const attendees = page.locator('input[name="scope"][value="attendees:read"]');
    // The key's scopes are offered; those asked for are ticked; nothing the key lacks is offered.
    expect(await events.isChecked()).toBe(true);
    expect(await orders.isChecked()).toBe(true);
    expect(await attendees.isChecked()).toBe(false);
    expect(await page.locator('input[name="scope"][value="people:read"]').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'sign-in-consent.png') });

    await orders.uncheck();
    await page.getByRole('button', { name: 'Allow' }).click();
    await expect.poll(() => callbacks.length, { timeout: 30_000 }).toBe(1);
    const back = new URL(callbacks[0]!);
    expect(back.searchParams.get('state')).toBe('browser-state');

    const issued = await exchangeCode(t, {
      code: back.searchParams.get('code')!,
      clientId,
      verifier,
      resource: `${origin}/mcp`,
    });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(claimsOf(issued.body.access_token)).toMatchObject({
      aud: `${origin}/mcp`,
      sub: apiKeyId,
      scope: 'events:read',
    });
  }, 90_000);
});
