// A card hold that runs out goes to the waiting list (issue 52, items 1 and 4), in headless Chromium:
// the last place of a card ticket is held by a buyer who leaves Stripe's Checkout (the stand-in's
// page) without paying; the page then says sold out and a second person joins the waiting list; the
// hold's end passes and the reconciliation job expires the session and releases the place, which is
// offered to the person waiting by e-mail; its link opens the form for the held ticket, which goes to
// Checkout, is paid there and ends on the ticket. Axe-clean with readable contrast at 390 and 1280 px.
// Skips, saying why, where Chromium is not installed.
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileCardPayments } from '../../core/orders';
import { axeViolations } from '../support/axe';
import { chromiumInstalled, launchChromium, screenshotDir } from '../support/chromium';
import { lowContrastText } from '../support/contrast';
import { MutableClock, startTestServer, type TestServer } from '../support/server';
import { publishedEvent } from '../support/sign-up';
import { type SmtpTestServer, startSmtpServer } from '../support/smtp';
import { type StripeStandIn, startStripeStandIn } from '../support/stripe-stand-in';
import { connectedWorkspace } from '../support/stripe-workspace';
import { offerLinkSent } from '../support/waiting-offers';

const installed = chromiumInstalled('the hold-to-waiting-list browser test');

describe.skipIf(!installed)('a card hold that runs out, offered to the waiting list', () => {
  let t: TestServer;
  let stripe: StripeStandIn;
  let smtp: SmtpTestServer;
  let browser: Browser;
  let key: string;
  const clock = new MutableClock();

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    smtp = await startSmtpServer();
    t = await startTestServer({
      clock,
      env: {
        TESSERA_STRIPE_API_URL: stripe.origin,
        TESSERA_SMTP_URL: smtp.url,
        TESSERA_MAIL_FROM: 'tickets@tessera.test',
      },
    });
    ({ key } = await connectedWorkspace(t, stripe, 'Hold to waiting list'));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await stripe?.close();
    await smtp?.close();
  });

  async function check(page: Page, name: string, width: number) {
    expect(await axeViolations(page), `${name} ${width} px`).toEqual([]);
    expect(await lowContrastText(page), `${name} ${width} px`).toEqual([]);
    await page.screenshot({
      path: join(screenshotDir, `hold-to-waiting-${name}-${width}.png`),
      fullPage: true,
    });
  }

  it('releases the place when the hold ends and the person waiting buys it by card', async () => {
    for (const width of [390, 1280]) {
      const event = await publishedEvent(t, key, { currency: 'NOK', name: `Hold Day ${width}` });
      const type = await t.api(`/events/${event.eventId}/ticket-types`, {
        key,
        method: 'POST',
        body: { name: 'Masterclass seat', price: 900, vatRate: 25, capacity: 1, waitingList: true },
      });
      expect(type.status, JSON.stringify(type.body)).toBe(201);
      const card = await t.api(`/events/${event.eventId}`, {
        key,
        method: 'PATCH',
        body: { paymentMethods: 'card' },
      });
      expect(card.status).toBe(200);

      // The first buyer takes the last place to Checkout and leaves without paying.
      const first = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width, height: 900 } });
      const buyer = await first.newPage();
      await buyer.goto(event.url);
      await buyer.getByLabel('First name').fill('Ola');
      await buyer.getByLabel('Last name').fill('Hold');
      await buyer.getByLabel('E-mail').fill(`ola.${width}@example.org`);
      await Promise.all([
        buyer.waitForURL(`${stripe.origin}/checkout/**`),
        buyer.getByRole('button', { name: 'Register' }).click(),
      ]);
      await first.close();

      // Sold out now: the second person joins the waiting list.
      const email = `sigrid.${width}@example.org`;
      const second = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width, height: 900 } });
      const page = await second.newPage();
      await page.goto(event.url);
      expect(await page.getByText('Join the waiting list').first().isVisible()).toBe(true);
      await page.fill('[name="wait.firstName"]', 'Sigrid');
      await page.fill('[name="wait.lastName"]', 'Undset');
      await page.fill('[name="wait.email"]', email);
      await page.check('[name="wait.consent"]');
      await Promise.all([
        page.waitForSelector('text=on the waiting list'),
        page.getByRole('button', { name: 'Join the waiting list' }).click(),
      ]);
      await check(page, 'joined', width);

      // The hold's end passes (the clock stays on: the offer and its e-mail are made then), and the
      // reconciliation expires the session and releases the place, which goes to her.
      clock.advance(31 * 60_000);
      await reconcileCardPayments(t.server.services);
      const held = await t.api(`/events/${event.eventId}/orders`, { key });
      expect(held.body.data.map((o: { status: string }) => o.status)).toEqual(['expired']);
      const link = await offerLinkSent(smtp, email);
      expect((await page.goto(link))?.status()).toBe(200);
      expect(await page.inputValue('[name="person.0.email"]')).toBe(email);
      await check(page, 'offer', width);
      await Promise.all([
        page.waitForURL(`${stripe.origin}/checkout/**`),
        page.getByRole('button', { name: 'Register' }).click(),
      ]);
      await Promise.all([
        page.waitForURL(`${t.server.origin}/e/**/orders/**`),
        page.getByRole('button', { name: /^Pay/ }).click(),
      ]);
      expect(await page.getByRole('heading', { name: /is paid$/ }).isVisible()).toBe(true);
      expect(await page.getByText('Sigrid Undset').first().isVisible()).toBe(true);
      await check(page, 'paid', width);
      await second.close();
    }
  });
});
