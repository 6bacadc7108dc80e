// The public registration form of /e/{slug} in headless Chromium: a free ticket registered by
// keyboard only, ending on the page with the ticket link; a request for a type needing approval
// ending on the request-received page; a form sent with mistakes shows the
// summary and the messages beside the fields; labels on every field, text contrast at least 4.5:1,
// nothing wider than the window at 390 and 1280 px. Screenshots go to docs/screenshots/
// with UPDATE_SCREENSHOTS=1, else to .tmp/screenshots. Skips, saying why, where Chromium is not installed.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { chromiumInstalled, launchChromium, screenshotDir } from '../support/chromium';
import { lowContrastText } from '../support/contrast';
import { pricedTicketType } from '../support/pending-orders';
import { startTestServer, type TestServer } from '../support/server';
import { formQuestion, formTicketType, publishedEvent } from '../support/sign-up';

declare const document: any;
declare const window: any;

const installed = chromiumInstalled('the sign-up browser test');
const shots = screenshotDir;

describe.skipIf(!installed)('the public registration form in a browser', () => {
  let t: TestServer;
  let browser: Browser;
  let key: string;
  let event: { eventId: string; slug: string; url: string };
  let typeId: string;

  beforeAll(async () => {
    t = await startTestServer();
    const { workspaceId } = await t.workspace('Sign-up page');
    ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
    event = await publishedEvent(t, key, { name: 'Oslo JavaScript Meetup', slug: 'oslo-js-meetup' });
    typeId = await formTicketType(t, event.eventId, { name: 'Free seat', capacity: 80, maxPerOrder: 4 });
    await formQuestion(t, event.eventId, {
      label: 'Dietary needs',
      kind: 'choice',
      required: true,
      options: ['none', 'vegetarian', 'vegan'],
    });
    browser = await launchChromium();
    mkdirSync(shots, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function check(page: Page, name: string, width: number) {
    expect(await lowContrastText(page), `${name} ${width} px`).toEqual([]);
    expect(await axeViolations(page), `${name} ${width} px`).toEqual([]);
    const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(wider, `${name} ${width} px`).toBeLessThanOrEqual(0);
    // Every field a person fills has a label that names it.
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll('form input:not([type=hidden]), form select, form textarea')]
        .filter((el: any) => !(el.labels?.length > 0))
        .map((el: any) => el.name),
    );
    expect(unlabelled, `${name} ${width} px`).toEqual([]);
    // From the top: a page scrolled to a field would show the sticky header mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(shots, `sign-up-${name}-${width}.png`), fullPage: true });
  }

  /** Tabs until the field of this name has the focus (the keyboard is all the test uses). */
  async function tabTo(page: Page, name: string) {
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => document.activeElement?.getAttribute('name'));
      if (focused === name) return;
    }
    throw new Error(`${name} never got the focus`);
  }

  it('registers a free ticket by keyboard only and ends on the page with the ticket link', async () => {
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width, height: 900 } });
      const page = await context.newPage();
      expect((await page.goto(event.url))?.status()).toBe(200);
      await check(page, 'form', width);

      await tabTo(page, `qty.${typeId}`);
      await page.keyboard.press('Control+A');
      await page.keyboard.type('1');
      await tabTo(page, 'person.0.firstName');
      await page.keyboard.type('Ingrid');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Solberg');
      await page.keyboard.press('Tab');
      await page.keyboard.type(`ingrid.${width}@example.org`);
      await page.keyboard.press('Tab');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.value)).toBe('register');
      await Promise.all([page.waitForURL(/\/registered\?/), page.keyboard.press('Enter')]);
      const text: string = await page.evaluate(() => document.body.textContent);
      expect(text).toContain("You're registered");
      expect(text).toContain('Ingrid Solberg');
      const link: string = await page.evaluate(() =>
        document.querySelector('a[href^="/t/"]').getAttribute('href'),
      );
      const row = await t.server.services.db
        .selectFrom('attendees')
        .select('ticket_code')
        .where('email', '=', `ingrid.${width}@example.org`)
        .executeTakeFirstOrThrow();
      expect(link).toBe(`/t/${row.ticket_code}`);
      await check(page, 'free-end', width);
      await context.close();
    }
  });

  it('ends a paid ticket in an order awaiting transfer; marked paid through the API, the ticket is valid', async () => {
    const paidEvent = await publishedEvent(t, key, {
      name: 'Nordic Design Conference',
      slug: 'nordic-design-conf',
    });
    const priced = await pricedTicketType(t.server.services.db, paidEvent.eventId, 249_000, 25);
    await t.api(`/events/${paidEvent.eventId}/sign-up`, {
      key,
      method: 'PATCH',
      body: { paymentInstructions: 'Bank: DNB, account 1234.56.78903 (IBAN NO93 8601 1117 947).' },
    });
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(paidEvent.url);
      await page.fill(`[name="qty.${priced}"]`, '1');
      await page.fill('#f-person-0-firstName', 'Lars');
      await page.fill('#f-person-0-lastName', 'Berg');
      await page.fill('#f-person-0-email', `lars.${width}@example.org`);
      await Promise.all([page.waitForURL(/\/orders\//), page.click('button[value=register]')]);
      const text: string = await page.evaluate(() => document.body.textContent);
      expect(text).toContain('Your order awaits payment');
      expect(text).toContain('€2,490.00');
      expect(text).toContain('Bank: DNB, account 1234.56.78903');
      expect(text).toContain('Your tickets are issued when the payment arrives.');
      await check(page, 'paid-end', width);
      await context.close();

      const orderId = page.url().split('/').pop()!;
      const paid = await t.api(`/events/${paidEvent.eventId}/orders/${orderId}/mark-paid`, {
        key,
        method: 'POST',
        body: { method: 'transfer', provider: 'DNB' },
      });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
      const ticket = await t.server.services.db
        .selectFrom('attendees')
        .select('id')
        .where('order_id', '=', orderId)
        .executeTakeFirstOrThrow();
      const attendee = (await t.api(`/events/${paidEvent.eventId}/attendees/${ticket.id}`, { key })).body;
      expect(attendee).toMatchObject({ status: 'active', orderStatus: 'paid', valid: true });
    }
  });

  it('sends a request for a type needing approval, saying so beside it; the page it ends on asks no payment until approved', async () => {
    const approvalEvent = await publishedEvent(t, key, {
      name: 'Fjord Founders Retreat',
      slug: 'fjord-retreat',
    });
    const invited = await pricedTicketType(t.server.services.db, approvalEvent.eventId, 150_000, 25);
    await t.server.services.db
      .updateTable('ticket_types')
      .set({ requires_approval: 1 })
      .where('id', '=', invited)
      .execute();
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(approvalEvent.url);
      expect(await page.textContent(`#f-qty-${invited}-hint`)).toContain("needs the organiser's approval");
      await page.fill(`[name="qty.${invited}"]`, '1');
      await page.fill('#f-person-0-firstName', 'Sigrid');
      await page.fill('#f-person-0-lastName', 'Lie');
      await page.fill('#f-person-0-email', `sigrid.${width}@example.org`);
      await Promise.all([page.waitForURL(/\/orders\//), page.click('button[value=register]')]);
      const text: string = await page.evaluate(() => document.body.textContent);
      expect(text).toContain('We received your request');
      expect(text).toContain('there is nothing to pay yet');
      expect(text).not.toContain('How to pay');
      await check(page, 'request-end', width);

      // Approved through the API, the same page asks for the payment.
      const orderId = page.url().split('/').pop()!;
      const approved = await t.api(`/events/${approvalEvent.eventId}/orders/${orderId}/approve`, {
        key,
        method: 'POST',
        body: {},
      });
      expect(approved.body).toMatchObject({ status: 'transfer', total: 1500 });
      await page.reload();
      expect(await page.evaluate(() => document.body.textContent)).toContain('Your order awaits payment');
      await context.close();
    }
  });

  it('takes a discount code: a wrong one said beside its field, a right one taken off the order', async () => {
    const codeEvent = await publishedEvent(t, key, {
      name: 'Bergen Product Days',
      slug: 'bergen-product-days',
    });
    const priced = await pricedTicketType(t.server.services.db, codeEvent.eventId, 200_000, 25);
    const made = await t.api(`/events/${codeEvent.eventId}/discount-codes`, {
      key,
      method: 'POST',
      body: { code: 'MEETUP20', percent: 20 },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(codeEvent.url);
      await page.fill(`[name="qty.${priced}"]`, '1');
      await page.fill('#f-person-0-firstName', 'Kari');
      await page.fill('#f-person-0-lastName', 'Holm');
      await page.fill('#f-person-0-email', `kari.${width}@example.org`);
      await page.fill('#f-discountCode', 'MEETUP2O');
      await Promise.all([page.waitForLoadState('load'), page.click('button[value=register]')]);
      expect(await page.textContent('#f-discountCode-error')).toContain('no discount code MEETUP2O');
      expect(await page.getAttribute('#f-discountCode', 'aria-invalid')).toBe('true');
      await check(page, 'discount-code-wrong', width);
      await page.fill('#f-discountCode', 'meetup20');
      await Promise.all([page.waitForURL(/\/orders\//), page.click('button[value=register]')]);
      const text: string = await page.evaluate(() => document.body.textContent);
      // 2,000.00 less 20 %.
      expect(text).toContain('€1,600.00');
      await context.close();
    }
  });

  it('shows the summary and each message beside its field when the form has mistakes', async () => {
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(event.url);
      await page.fill('#f-person-0-firstName', 'Ingrid');
      await page.fill('#f-person-0-email', 'ingrid-at-example');
      await page.click('button[value=register]');
      await page.waitForSelector('.error-summary');
      const summary: string[] = await page.evaluate(() =>
        [...document.querySelectorAll('.error-summary a')].map((a: any) => a.textContent),
      );
      expect(summary).toEqual([
        'Last name: This is required.',
        'E-mail: Enter an e-mail address such as name@example.org.',
        'Dietary needs: This is required.',
      ]);
      expect(await page.inputValue('#f-person-0-firstName')).toBe('Ingrid');
      expect(await page.getAttribute('#f-person-0-email', 'aria-invalid')).toBe('true');
      // The summary's link leads to its field.
      await page.click('.error-summary a[href="#f-person-0-email"]');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-person-0-email');
      await check(page, 'errors', width);
      await context.close();
    }
  });
});
