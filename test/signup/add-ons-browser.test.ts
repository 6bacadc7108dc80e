// Add-ons on the public registration form in headless Chromium: a free ticket with a free add-on
// ticked by keyboard only (Tab, Space), the registration written with it; the add-on checkboxes
// labelled, text contrast at least 4.5:1, focus visible, nothing wider than the window at 390 and
// 1280 px. Screenshots go to docs/screenshots/ with UPDATE_SCREENSHOTS=1, else to .tmp/screenshots.
// Skips where Chromium is not installed.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAddOn } from '../support/add-ons';
import { axeViolations } from '../support/axe';
import { chromiumInstalled, launchChromium, screenshotDir } from '../support/chromium';
import { lowContrastText } from '../support/contrast';
import { startTestServer, type TestServer } from '../support/server';
import { formTicketType, publishedEvent } from '../support/sign-up';

declare const document: any;
declare const window: any;

const installed = chromiumInstalled('the add-ons browser test');
const shots = screenshotDir;

describe.skipIf(!installed)('add-ons on the public form in a browser', () => {
  let t: TestServer;
  let browser: Browser;
  let event: { eventId: string; slug: string; url: string };
  let workshop: string;

  beforeAll(async () => {
    t = await startTestServer();
    const { workspaceId } = await t.workspace('Add-ons page');
    const { key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' });
    event = await publishedEvent(t, key, { name: 'Bergen Data Day', slug: 'bergen-data-day' });
    await formTicketType(t, event.eventId, { name: 'Free seat', capacity: 80, maxPerOrder: 4 });
    const db = t.server.services.db;
    workshop = await insertAddOn(db, event.eventId, { name: 'Afternoon workshop', capacity: 20 });
    await insertAddOn(db, event.eventId, { name: 'Conference dinner', priceMinor: 59_000, vatRate: 25 });
    browser = await launchChromium();
    mkdirSync(shots, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function check(page: Page, width: number) {
    expect(await lowContrastText(page), `${width} px`).toEqual([]);
    expect(await axeViolations(page), `${width} px`).toEqual([]);
    const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(wider, `${width} px`).toBeLessThanOrEqual(0);
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll('form input:not([type=hidden]), form select, form textarea')]
        .filter((el: any) => !(el.labels?.length > 0))
        .map((el: any) => el.name),
    );
    expect(unlabelled, `${width} px`).toEqual([]);
  }

  it('ticks a free add-on by keyboard and registers it with the ticket', async () => {
    let left = 20;
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width, height: 900 } });
      const page = await context.newPage();
      expect((await page.goto(event.url))?.status()).toBe(200);
      await check(page, width);
      const labels: string[] = await page.evaluate(() =>
        [...document.querySelectorAll('input[name="person.0.addOns"]')].map((el: any) =>
          el.labels[0].textContent.trim(),
        ),
      );
      expect(labels).toEqual([`Afternoon workshop · Free · ${left} left`, 'Conference dinner · €590.00']);

      await page.fill('[name="person.0.firstName"]', 'Sigrid');
      await page.fill('[name="person.0.lastName"]', 'Undset');
      await page.fill('[name="person.0.email"]', `sigrid.${width}@example.org`);
      await page.focus('[name="person.0.email"]');
      for (let i = 0; i < 10; i++) {
        await page.keyboard.press('Tab');
        if (await page.evaluate(() => document.activeElement?.name === 'person.0.addOns')) break;
      }
      expect(await page.evaluate(() => document.activeElement?.value)).toBe(workshop);
      // The focus is seen: an outline of at least 2 px.
      const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineWidth);
      expect(Number.parseFloat(outline)).toBeGreaterThanOrEqual(2);
      await page.keyboard.press('Space');
      expect(await page.evaluate(() => document.activeElement?.checked)).toBe(true);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: join(shots, `sign-up-add-ons-${width}.png`), fullPage: true });

      await Promise.all([page.waitForURL(/\/registered\?/), page.click('button[value=register]')]);
      const rows = await t.server.services.db
        .selectFrom('attendee_add_ons')
        .innerJoin('attendees', 'attendees.id', 'attendee_add_ons.attendee_id')
        .select('attendee_add_ons.add_on_id')
        .where('attendees.email', '=', `sigrid.${width}@example.org`)
        .execute();
      expect(rows).toEqual([{ add_on_id: workshop }]);
      left -= 1;
      await context.close();
    }
  });
});

declare function getComputedStyle(el: unknown): { outlineWidth: string };
