// Buying a card ticket on an event's public page (issue 52 item 1), in headless Chromium: the form
// asks how to pay where the event takes card and transfer, the browser is sent to Stripe's Checkout
// (the stand-in's page, over real TLS; the page's form-action lets the redirect through), pays
// there, and comes back to the order's page with its ticket, then opens the ticket. Axe-clean with
// readable contrast at 390 and 1280 px. Skips, saying why, where Chromium is not installed.
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { chromiumInstalled, launchChromium, screenshotDir } from '../support/chromium';
import { lowContrastText } from '../support/contrast';
import { pricedTicketType } from '../support/pending-orders';
import { startTestServer, type TestServer } from '../support/server';
import { publishedEvent } from '../support/sign-up';
import { type StripeStandIn, startStripeStandIn } from '../support/stripe-stand-in';
import { connectedWorkspace } from '../support/stripe-workspace';

const installed = chromiumInstalled('the card checkout browser test');

describe.skipIf(!installed)('buying a card ticket on the public page', () => {
  let t: TestServer;
  let stripe: StripeStandIn;
  let browser: Browser;
  let slug: string;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    t = await startTestServer({ env: { TESSERA_STRIPE_API_URL: stripe.origin } });
    const { key } = await connectedWorkspace(t, stripe, 'Card on the page');
    const event = await publishedEvent(t, key, { currency: 'NOK', name: 'Fjord Summit' });
    slug = event.slug;
    await pricedTicketType(t.server.services.db, event.eventId, 125_000, 25);
    const both = await t.api(`/events/${event.eventId}`, {
      key,
      method: 'PATCH',
      body: { paymentMethods: 'both' },
    });
    expect(both.status, JSON.stringify(both.body)).toBe(200);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await stripe?.close();
  });

  it('pays at Checkout and comes back to the ticket, axe-clean at 390 and 1280 px', async () => {
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${t.server.origin}/e/${slug}`);
      const card = page.getByRole('radio', { name: /By card/ });
      expect(await card.isChecked(), `${width} px`).toBe(true);
      expect(await page.getByRole('radio', { name: /By bank transfer/ }).isVisible()).toBe(true);
      expect(await axeViolations(page), `${width} px`).toEqual([]);
      expect(await lowContrastText(page), `${width} px`).toEqual([]);
      await page.screenshot({ path: join(screenshotDir, `card-form-${width}.png`), fullPage: true });
      await page.getByLabel('First name').fill('Kari');
      await page.getByLabel('Last name').fill(`Nordmann${width}`);
      await page.getByLabel('E-mail').fill(`kari.${width}@example.org`);
      await Promise.all([
        page.waitForURL(`${stripe.origin}/checkout/**`),
        page.getByRole('button', { name: 'Register' }).click(),
      ]);
      expect(await page.getByRole('heading', { name: 'Pay 125000 NOK' }).isVisible()).toBe(true);
      await Promise.all([
        page.waitForURL(`${t.server.origin}/e/${slug}/orders/**`),
        page.getByRole('button', { name: /^Pay/ }).click(),
      ]);
      const paid = page.getByRole('heading', { name: /is paid$/ });
      expect(await paid.isVisible(), `${width} px`).toBe(true);
      expect(await axeViolations(page), `${width} px`).toEqual([]);
      expect(await lowContrastText(page), `${width} px`).toEqual([]);
      await page.screenshot({ path: join(screenshotDir, `card-paid-${width}.png`), fullPage: true });
      await Promise.all([
        page.waitForURL(`${t.server.origin}/t/**`),
        page.getByRole('link', { name: /your ticket/ }).click(),
      ]);
      expect(await page.getByText(`Nordmann${width}`).first().isVisible()).toBe(true);
      await context.close();
    }
  });
});
