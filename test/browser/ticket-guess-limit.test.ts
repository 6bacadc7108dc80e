// The ticket-code guess limit as a visitor meets it in headless Chromium: one address of the page a
// registration ends on carrying 30 codes that name no ticket uses up the minute's misses, and then
// even a real ticket's page, and that address again, answer the refusal page (429, Retry-After):
// "Too many tries", how long to wait, no ticket shown. Text contrast at least 4.5:1. Screenshot
// ticket-guess-limit.png. Skips, saying why, where Chromium is not installed.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTicketCode } from '../../core/platform/ticket-codes';
import { axeViolations } from '../support/axe';
import { chromiumInstalled, launchChromium, screenshotDir } from '../support/chromium';
import { lowContrastText } from '../support/contrast';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { startTestServer, type TestServer } from '../support/server';

const installed = chromiumInstalled('the ticket guess limit browser test');

describe.skipIf(!installed)('the ticket-code guess limit in a browser', () => {
  let t: TestServer;
  let browser: Browser;
  let e: DoorEvent;
  let slug: string;
  let code: string;

  beforeAll(async () => {
    t = await startTestServer();
    const { workspaceId } = await t.workspace('Guess limit');
    const { key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' });
    e = await seedDoorEvent(t, workspaceId, key);
    slug = (await t.api(`/events/${e.eventId}/status`, { key, method: 'PUT', body: { status: 'published' } }))
      .body.slug;
    const [attendeeId] = await e.register(e.general);
    code = (await t.api(`/events/${e.eventId}/attendees/${attendeeId}`, { key })).body.ticketCode;
    browser = await launchChromium();
    mkdirSync(screenshotDir, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows the refusal page, with the wait, once one page address has carried 30 unknown codes', async () => {
    const context = await browser.newContext({
      ignoreHTTPSErrors: true,
      viewport: { width: 390, height: 800 },
    });
    const page = await context.newPage();
    // Before: the real ticket opens.
    expect((await page.goto(`${t.server.origin}/t/${code}`))?.status()).toBe(200);
    // One address with 30 codes that name no ticket: 30 misses at once, answered as not found.
    const guesses = Array.from({ length: 30 }, () => `t=${newTicketCode()}`).join('&');
    const missed = await page.goto(`${t.server.origin}/e/${slug}/registered?${guesses}`);
    expect(missed?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('No such tickets');

    // Now even the real ticket's page waits, and says so.
    for (const address of [`/t/${code}`, `/e/${slug}/registered?t=${code}`]) {
      const refused = await page.goto(`${t.server.origin}${address}`);
      expect(refused?.status(), address).toBe(429);
      expect(Number(await refused?.headerValue('retry-after')), address).toBeGreaterThan(0);
      expect(await page.title(), address).toContain('Too many tries');
      expect(await page.locator('h1').textContent(), address).toBe('Too many tries');
      const text = (await page.locator('main').textContent()) ?? '';
      expect(text, address).toMatch(/Try again in \d+ seconds/);
      expect(text, address).not.toContain(code);
      expect(await page.locator('[data-ticket-qr]').count(), address).toBe(0);
      expect(await lowContrastText(page), address).toEqual([]);
      expect(await axeViolations(page), address).toEqual([]);
    }
    await page.screenshot({ path: join(screenshotDir, 'ticket-guess-limit.png'), fullPage: true });
    await context.close();
  });
});
