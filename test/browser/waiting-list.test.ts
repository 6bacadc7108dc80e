// The waiting list in headless Chromium: a sold-out event's page offers the list; a person joins it
// with the keyboard (labels, consent, their place in line said); a ticket cancelled through the API
// frees a place that is offered to them by e-mail; its link opens the form for the held ticket with
// their details filled in, and registering ends on the ticket. Axe-clean, text contrast at least
// 4.5:1 and nothing wider than the window at 390 and 1280 px. Skips, saying why, without Chromium.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverWithMail } from '../mail/mail-support';
import { axeViolations } from '../support/axe';
import { chromiumInstalled, launchChromium, screenshotDir } from '../support/chromium';
import { lowContrastText } from '../support/contrast';
import { person, register } from '../support/sales';
import type { TestServer } from '../support/server';
import { publishedEvent } from '../support/sign-up';
import type { SmtpTestServer } from '../support/smtp';
import { offerLinkSent } from '../support/waiting-offers';

declare const document: any;
declare const window: any;

const installed = chromiumInstalled('the waiting-list browser test');

describe.skipIf(!installed)('the waiting list in a browser', () => {
  let t: TestServer;
  let smtp: SmtpTestServer;
  let browser: Browser;
  let key: string;

  beforeAll(async () => {
    ({ t, smtp } = await serverWithMail());
    const { workspaceId } = await t.workspace('Waiting page');
    ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
    browser = await launchChromium();
    mkdirSync(screenshotDir, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  async function check(page: Page, name: string, width: number) {
    expect(await lowContrastText(page), `${name} ${width} px`).toEqual([]);
    expect(await axeViolations(page), `${name} ${width} px`).toEqual([]);
    const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(wider, `${name} ${width} px`).toBeLessThanOrEqual(0);
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll('form input:not([type=hidden]), form select, form textarea')]
        .filter((el: any) => !(el.labels?.length > 0))
        .map((el: any) => el.name),
    );
    expect(unlabelled, `${name} ${width} px`).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(screenshotDir, `waiting-list-${name}-${width}.png`), fullPage: true });
  }

  async function tabTo(page: Page, name: string) {
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.getAttribute('name'))) === name) return;
    }
    throw new Error(`${name} never got the focus`);
  }

  it('joins a sold-out ticket type by keyboard, and takes the place offered by e-mail through its link', async () => {
    for (const width of [390, 1280]) {
      const event = await publishedEvent(t, key, {
        name: `Bergen Rust Day ${width}`,
        slug: `bergen-rust-${width}`,
      });
      const type = await t.api(`/events/${event.eventId}/ticket-types`, {
        key,
        method: 'POST',
        body: { name: 'Workshop seat', capacity: 1, waitingList: true },
      });
      const taken = await register(t, key, event.eventId, [person(type.body.ticketTypeId)]);
      expect(taken.status).toBe(201);
      const email = `sigrid.${width}@example.org`;

      const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width, height: 900 } });
      const page = await context.newPage();
      expect((await page.goto(event.url))?.status()).toBe(200);
      expect(await page.evaluate(() => document.body.textContent)).toContain('Join the waiting list');
      await check(page, 'sold-out', width);

      await tabTo(page, 'wait.firstName');
      await page.keyboard.type('Sigrid');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Undset');
      await page.keyboard.press('Tab');
      await page.keyboard.type(email);
      // Without consent, the form says why beside the box and in the summary.
      await tabTo(page, 'wait.consent');
      await page.keyboard.press('Enter');
      await page.waitForSelector('.error-summary');
      expect(await page.evaluate(() => document.body.textContent)).toContain('Agree to be e-mailed');
      expect(await page.inputValue('[name="wait.email"]')).toBe(email);
      await check(page, 'join-refused', width);
      await tabTo(page, 'wait.consent');
      await page.keyboard.press('Space');
      await page.keyboard.press('Enter');
      await page.waitForSelector('text=on the waiting list');
      const joined: string = await page.evaluate(() => document.body.textContent);
      expect(joined).toContain("You're on the waiting list");
      expect(joined).toContain('number 1');
      await check(page, 'joined', width);

      const cancelled = await t.api(
        `/events/${event.eventId}/attendees/${taken.body.attendees[0].attendeeId}/cancel`,
        { key, method: 'POST', body: {} },
      );
      expect(cancelled.status).toBe(200);
      const link = await offerLinkSent(smtp, email);
      expect((await page.goto(link))?.status()).toBe(200);
      expect(await page.inputValue('[name="person.0.email"]')).toBe(email);
      expect(await page.evaluate(() => document.body.textContent)).toContain('is held for you until');
      await check(page, 'offer', width);
      await tabTo(page, 'action');
      await Promise.all([page.waitForURL(/\/registered\?/), page.keyboard.press('Enter')]);
      const text: string = await page.evaluate(() => document.body.textContent);
      expect(text).toContain("You're registered");
      expect(text).toContain('Sigrid Undset');
      await context.close();
    }
  });
});
