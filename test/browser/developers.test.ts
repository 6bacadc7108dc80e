// The developer pages as a developer sees them: /developers and /developers/start loaded in headless
// Chromium (Debian's `chromium` package, driven by playwright-core). The reference (Scalar, served
// by the service) renders the operations area by area with curl and fetch samples, marks
// extensions, and sends a request from the page with a key the reader types; the start page fits
// a phone and a desktop. Nothing is fetched from anywhere but the service and the console stays
// clean. Skips, saying why, where Chromium is not installed (CI installs it). UPDATE_SCREENSHOTS=1
// writes the screenshots in docs/.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const installed = existsSync(executablePath);
if (!installed)
  console.warn(`Skipping the browser tests: no Chromium at ${executablePath} (apt-get install chromium).`);

const root = resolve(import.meta.dirname, '../..');
const shots = process.env.UPDATE_SCREENSHOTS ? join(root, 'docs') : join(root, '.tmp');
const desktop = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };
// Run in the page (the test's TypeScript has no DOM types): how wide the document lays itself out,
// and the start page's blocks that overflow their box or the window.
const documentWidth = 'document.documentElement.scrollWidth';
const clippedBlocks = `[...document.querySelectorAll('main pre, main p, main h1, main h2')]
  .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > innerWidth)
  .map((e) => e.textContent.slice(0, 60))`;

describe.skipIf(!installed)('the developer pages in a browser', () => {
  let t: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let own: { name: string; key: string };
  const requested: string[] = [];
  const consoleErrors: string[] = [];

  /** A page of the shared context at a width, recording requests and console errors. */
  async function open(viewport: { width: number; height: number }): Promise<Page> {
    const p = await context.newPage();
    await p.setViewportSize(viewport);
    p.on('request', (r) => requested.push(r.url()));
    p.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${p.url()}: ${m.text()}`);
    });
    p.on('pageerror', (e) => consoleErrors.push(`${p.url()}: ${e.message}`));
    return p;
  }

  /** Loads the reference at an operation and waits for its heading. */
  async function reference(p: Page, hash: string, heading: string): Promise<void> {
    await p.goto(`${t.server.origin}/developers#${hash}`);
    await p.getByRole('heading', { name: heading, exact: true }).first().waitFor({ timeout: 30_000 });
  }

  beforeAll(async () => {
    t = await startTestServer();
    const workspace = await t.workspace('Try-it workspace');
    own = {
      name: workspace.name,
      key: (await t.key({ workspaceId: workspace.workspaceId, preset: 'dashboard' })).key,
    };
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
    context = await browser.newContext({ ignoreHTTPSErrors: true });
    page = await open(desktop);
    mkdirSync(shots, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders the reference from the OpenAPI document, area by area, with operations and their answers', async () => {
    await page.goto(`${t.server.origin}/developers`);
    await page.getByRole('heading', { name: 'Tessera API' }).waitFor({ timeout: 30_000 });
    for (const area of ['Workspace', 'Events', 'Tickets', 'Attendees', 'Check-in', 'Programme'])
      expect(
        await page.getByRole('button', { name: new RegExp(`^${area} (Open|Close) Group$`) }).count(),
        area,
      ).toBe(1);
    await page.screenshot({ path: join(shots, 'developers-reference.png') });
  });

  it('sends a request from the page with the key the reader types, and shows the answer, by keyboard', async () => {
    await reference(page, 'tag/workspace/GET/me', 'Who am I');
    await page
      .getByRole('button', { name: /Test Request/ })
      .first()
      .focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'API Client' });
    const token = dialog.getByLabel('Bearer Token');
    await token.waitFor();
    await token.fill(own.key);
    const sent = page.waitForRequest((r) => r.url() === `${t.server.origin}/api/v1/me`);
    await dialog.getByRole('button', { name: /^Send/ }).first().focus();
    await page.keyboard.press('Enter');
    expect((await sent).headers().authorization).toBe(`Bearer ${own.key}`);
    await expect.poll(() => dialog.textContent(), { timeout: 60_000 }).toContain('200 OK');
    expect(await dialog.textContent()).toContain(`"workspaceName": "${own.name}"`);
    await dialog.getByRole('button', { name: 'Close Client' }).click();
  });

  it('shows curl and fetch code samples for an operation', async () => {
    await reference(page, 'tag/events/GET/events', 'List events');
    const section = page.locator('section', {
      has: page.getByRole('heading', { name: 'List events', exact: true }),
    });
    const sample = section.first().locator('pre').first();
    expect(await sample.textContent()).toMatch(/curl .*\/api\/v1\/events/);
    await section.first().getByRole('button', { name: 'Shell Curl' }).click();
    const options = page.getByRole('option');
    expect(await options.allTextContents()).toEqual(expect.arrayContaining(['Curl', 'Fetch', 'Requests']));
    await options.filter({ hasText: 'Fetch' }).first().click();
    await expect.poll(() => sample.textContent()).toMatch(/fetch\('https:\/\/.*\/api\/v1\/events/);
  });

  it('marks an operation outside the published contract as an extension', async () => {
    await reference(
      page,
      'tag/attendees/PATCH/events/{eventId}/attendees/{attendeeId}',
      'Correct attendee details',
    );
    const section = page.locator('section', {
      has: page.getByRole('heading', { name: 'Correct attendee details' }),
    });
    await expect.poll(() => section.first().getByText('Extension', { exact: true }).isVisible()).toBe(true);
    expect(await section.first().textContent()).toContain('not in the published Tessera API contract');
  });

  it('fits a phone: the reference at 390 px', async () => {
    const small = await open(phone);
    await reference(small, 'tag/workspace/GET/me', 'Who am I');
    expect(await small.evaluate(documentWidth)).toBeLessThanOrEqual(phone.width);
    await small.screenshot({ path: join(shots, 'developers-reference-phone.png') });
    await small.close();
  });

  it("links an operation's problems to the error catalogue, where the code has its anchor", async () => {
    await reference(page, 'tag/events/POST/events', 'Create a draft event');
    await expect
      .poll(() => page.locator('a[href="/developers/errors#slugTaken"]').count())
      .toBeGreaterThan(0);
    await page.goto(`${t.server.origin}/developers/errors#slugTaken`);
    expect(await page.locator('tr#slugTaken').textContent()).toContain('409');
  });

  for (const [label, viewport, file] of [
    ['a desktop', desktop, 'developers-start.png'],
    ['a phone', phone, 'developers-start-phone.png'],
  ] as const)
    it(`shows the first five minutes on ${label}, every code block whole inside its box`, async () => {
      const p = await open(viewport);
      await p.goto(`${t.server.origin}/developers/start`);
      const text = await p.locator('main').textContent();
      expect(text).toContain('abk_demo0000read_');
      expect(text).toContain(`${t.server.origin}/api/v1/me`);
      expect(await p.evaluate(clippedBlocks)).toEqual([]);
      expect(await p.evaluate(documentWidth)).toBeLessThanOrEqual(viewport.width);
      // The desktop shot shows the first call, whose long key line was cut off before.
      if (viewport === desktop) await p.evaluate("document.querySelectorAll('main h2')[1].scrollIntoView()");
      await p.screenshot({ path: join(shots, file), fullPage: false });
      await p.close();
    });

  it('fetches nothing from anywhere but the service, and the console shows no error', () => {
    const foreign = requested.filter((u) => !u.startsWith(t.server.origin) && !/^(data|blob):/.test(u));
    expect(foreign).toEqual([]);
    expect(requested).toContainEqual(expect.stringMatching(/\/developers\/assets\/scalar\.js\?v=[\w-]{22}$/));
    expect(consoleErrors).toEqual([]);
  });
});
