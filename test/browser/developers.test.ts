// The API reference as a developer sees it: /developers loaded in headless Chromium (Debian's
// `chromium` package, driven by playwright-core) renders the operations area by area, links each
// operation's problems to the error catalogue, and fetches nothing from anywhere but the service.
// Skips, saying why, where Chromium is not installed (CI installs it). UPDATE_SCREENSHOTS=1 writes
// the screenshots in docs/.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const installed = existsSync(executablePath);
if (!installed)
  console.warn(`Skipping the browser tests: no Chromium at ${executablePath} (apt-get install chromium).`);

const root = resolve(import.meta.dirname, '../..');
const shots = process.env.UPDATE_SCREENSHOTS ? join(root, 'docs') : join(root, '.tmp');

describe.skipIf(!installed)('the developer pages in a browser', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];
  const blocked = new Set<string>();

  beforeAll(async () => {
    t = await startTestServer();
    browser = await chromium.launch({
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const context = await browser.newContext({
      ignoreHTTPSErrors: true,
      viewport: { width: 1400, height: 900 },
    });
    page = await context.newPage();
    page.on('request', (r) => requested.push(r.url()));
    page.on('requestfailed', (r) => {
      if (/csp/i.test(r.failure()?.errorText ?? '')) blocked.add(r.url());
    });
    mkdirSync(shots, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders the reference from the OpenAPI document, area by area, with operations and their answers', async () => {
    await page.goto(`${t.server.origin}/developers`);
    await page.locator('h2', { hasText: 'Register attendees' }).first().waitFor({ timeout: 30_000 });
    for (const area of ['Events', 'Tickets', 'Attendees', 'Check-in', 'Programme'])
      expect(await page.getByText(area, { exact: true }).count(), area).toBeGreaterThan(0);
    await page.screenshot({ path: join(shots, 'developers-reference.png') });
  }, 60_000);

  it("links an operation's problems to the error catalogue, where the code has its anchor", async () => {
    const link = page.locator('a[href="/developers/errors#slugTaken"]').first();
    expect(await link.count()).toBe(1);
    await page.goto(`${t.server.origin}/developers/errors#slugTaken`);
    const row = page.locator('tr#slugTaken');
    expect(await row.textContent()).toContain('409');
  }, 30_000);

  it('shows the first five minutes with the demonstration key and a first call', async () => {
    await page.goto(`${t.server.origin}/developers/start`);
    const text = await page.locator('main').textContent();
    expect(text).toContain('abk_demo0000read_');
    expect(text).toContain(`${t.server.origin}/api/v1/me`);
    await page.screenshot({ path: join(shots, 'developers-start.png'), fullPage: false });
  }, 30_000);

  it('fetches nothing from anywhere but the service: what the renderer asks elsewhere, the page policy blocks', () => {
    const foreign = requested.filter((u) => !u.startsWith(t.server.origin) && !/^(data|blob):/.test(u));
    expect(
      foreign.filter((u) => !blocked.has(u)),
      foreign.join(' '),
    ).toEqual([]);
    expect(requested).toContain(`${t.server.origin}/developers/assets/redoc.js`);
  });
});
