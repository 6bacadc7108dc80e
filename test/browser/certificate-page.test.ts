// A certificate's public verification page (/v/{code}) as a person sees it in headless Chromium, at
// 390 and 1280 px: the verdict, the holder, the event and the date readable (text contrast at least
// 4.5:1), nothing wider than the window, once valid and once revoked. Screenshots go to
// /tmp/shots-certs/ (SHOTS_DIR overrides). Skips, saying why, where Chromium is not installed.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { chromiumInstalled, launchChromium } from '../support/chromium';
import { lowContrastText } from '../support/contrast';
import { seedDoorEvent } from '../support/doors';
import { person, register } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

declare const document: any;
declare const window: any;

const installed = chromiumInstalled('the certificate page browser test');
const shots = process.env.SHOTS_DIR ?? '/tmp/shots-certs';

describe.skipIf(!installed)('the certificate verification page in a browser', () => {
  let t: TestServer;
  let browser: Browser;
  let key: string;
  let verificationUrl: string;
  let eventId: string;
  let certificateId: string;

  beforeAll(async () => {
    t = await startTestServer();
    const { workspaceId } = await t.workspace('Certificate page');
    ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
    const e = await seedDoorEvent(t, workspaceId, key);
    eventId = e.eventId;
    const res = await register(t, key, eventId, [
      person(e.general, { firstName: 'Margaret Eleanor', lastName: 'Hamilton-Fairweather' }),
    ]);
    const attendeeId = res.body.attendees[0].attendeeId;
    await t.api(`/events/${eventId}/attendees/${attendeeId}/check-in`, { key, method: 'POST', body: {} });
    const made = await t.api(`/events/${eventId}/certificates`, {
      key,
      method: 'POST',
      body: { attendeeId },
    });
    expect(made.status).toBe(201);
    ({ verificationUrl, certificateId } = made.body);
    browser = await launchChromium();
    mkdirSync(shots, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function look(state: string, expected: string[]) {
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width, height: 800 } });
      const page = await context.newPage();
      const answer = await page.goto(verificationUrl);
      expect(answer?.status()).toBe(200);
      const text: string = await page.evaluate(() => document.body.textContent);
      for (const words of expected) expect(text, `${width} px`).toContain(words);
      expect(await lowContrastText(page), `${width} px`).toEqual([]);
      expect(await axeViolations(page), `${width} px`).toEqual([]);
      const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(wider, `${width} px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(shots, `certificate-${state}-${width}.png`), fullPage: true });
      await context.close();
    }
  }

  it('shows a valid certificate: verdict, holder, kind, event and date', async () => {
    await look('valid', [
      'Certificate of attendance',
      'Valid',
      'Margaret Eleanor Hamilton-Fairweather',
      'Issued',
    ]);
  });

  it('shows a revoked one as revoked', async () => {
    const res = await t.api(`/events/${eventId}/certificates/${certificateId}`, { key, method: 'DELETE' });
    expect(res.status).toBe(204);
    await look('revoked', ['Revoked', 'no longer stands', 'Margaret Eleanor Hamilton-Fairweather']);
  });
});
