// A ticket's page (/t/{code}) as its holder sees it in headless Chromium: the QR code, decoded with
// jsQR from a screenshot of the SVG, holds the ticket's whole address; the calendar link downloads
// an .ics holding the event; keyboard focus reaches the links; text contrast at least 4.5:1 and
// nothing wider than the window at 390 and 1280 px; a cancelled ticket says so without a QR code.
// Screenshots: ticket.png (1280 px) and ticket-phone.png (390 px), in docs/screenshots/ with
// UPDATE_SCREENSHOTS=1, else in .tmp/screenshots. Skips,
// saying why, where Chromium is not installed.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import jsQR from 'jsqr';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { chromiumInstalled, launchChromium, screenshotDir } from '../support/chromium';
import { lowContrastText } from '../support/contrast';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { startTestServer, type TestServer } from '../support/server';

declare const document: any;
declare const window: any;
declare const Image: any;

const installed = chromiumInstalled('the ticket page browser test');
const shots = screenshotDir;

describe.skipIf(!installed)('the ticket page in a browser', () => {
  let t: TestServer;
  let browser: Browser;
  let key: string;
  let e: DoorEvent;
  let eventName: string;

  beforeAll(async () => {
    t = await startTestServer();
    const { workspaceId } = await t.workspace('Ticket page');
    ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
    e = await seedDoorEvent(t, workspaceId, key);
    eventName = (await t.api(`/events/${e.eventId}`, { key })).body.name;
    browser = await launchChromium();
    mkdirSync(shots, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function ticketCode(ticketTypeId: string): Promise<string> {
    const [id] = await e.register(ticketTypeId);
    return (await t.api(`/events/${e.eventId}/attendees/${id}`, { key })).body.ticketCode;
  }

  /** The text a QR code in a PNG holds: drawn into a canvas of a blank page, read by jsQR here. */
  async function decodeQr(page: Page, png: Buffer): Promise<string | null> {
    const blank = await page.context().newPage();
    const pixels = await blank.evaluate(
      async (dataUrl: string) => {
        const img = new Image();
        img.src = dataUrl;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const context = canvas.getContext('2d');
        context.drawImage(img, 0, 0);
        const data = context.getImageData(0, 0, img.width, img.height);
        return { width: data.width, height: data.height, rgba: Array.from(data.data as number[]) };
      },
      `data:image/png;base64,${png.toString('base64')}`,
    );
    await blank.close();
    return (
      jsQR(Uint8ClampedArray.from(pixels.rgba), pixels.width, pixels.height, {
        inversionAttempts: 'dontInvert',
      })?.data ?? null
    );
  }

  async function checkLayout(page: Page, width: number) {
    expect(await lowContrastText(page), `${width} px`).toEqual([]);
    expect(await axeViolations(page), `${width} px`).toEqual([]);
    const wider = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(wider, `${width} px`).toBeLessThanOrEqual(0);
  }

  it('shows a QR code holding the ticket address, downloads the calendar, and is readable and keyboard-usable at 390 and 1280 px', async () => {
    const code = await ticketCode(e.vip);
    const address = `${t.server.origin}/t/${code}`;
    for (const [width, file] of [
      [390, 'ticket-phone.png'],
      [1280, 'ticket.png'],
    ] as const) {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width, height: 900 } });
      const page = await context.newPage();
      const answer = await page.goto(address);
      expect(answer?.status()).toBe(200);
      const text: string = await page.evaluate(() => document.body.textContent);
      expect(text).toContain(eventName);
      expect(text).toContain('Valid');
      expect(text).toContain('Workshop');

      const qr = page.locator('[data-ticket-qr] svg');
      expect(await qr.getAttribute('aria-label')).toBe('QR code of this ticket');
      expect(await decodeQr(page, await qr.screenshot()), `${width} px`).toBe(address);

      await checkLayout(page, width);
      await page.screenshot({ path: join(shots, file), fullPage: true });

      // Keyboard alone reaches the links, the calendar's with a visible focus ring.
      const reached = new Map<string, string>();
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Tab');
        const now = await page.evaluate(() => {
          const element = document.activeElement;
          return {
            href: element?.getAttribute('href'),
            outline: window.getComputedStyle(element).outlineStyle,
          };
        });
        if (now.href) reached.set(now.href, now.outline);
      }
      expect([...reached.keys()]).toContain('/');
      expect(reached.get(`/t/${code}.ics`), `${width} px`).toBe('solid');

      await context.close();
    }
  });

  it('prints just the ticket: no site header, no links, the QR code kept', async () => {
    const code = await ticketCode(e.general);
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    await page.goto(`${t.server.origin}/t/${code}`);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('header.top').isVisible()).toBe(false);
    expect(await page.getByRole('link', { name: /Add to your calendar/ }).isVisible()).toBe(false);
    expect(await page.locator('[data-ticket-qr] svg').isVisible()).toBe(true);
    expect(await page.getByText(eventName).isVisible()).toBe(true);
    await context.close();
  });

  it('downloads the calendar file holding the event from the link', async () => {
    const code = await ticketCode(e.general);
    const context = await browser.newContext({ ignoreHTTPSErrors: true, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${t.server.origin}/t/${code}`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: /Add to your calendar/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^Test-event-[\w-]+\.ics$/);
    const ics = readFileSync((await download.path())!, 'utf8');
    expect(ics).toContain('BEGIN:VCALENDAR');
    expect(ics).toContain(`SUMMARY:${eventName}`);
    expect(ics.replace(/\r\n /g, '')).toContain(`${t.server.origin}/t/${code}`);
    await context.close();
  });

  it('shows a cancelled ticket as cancelled, without a QR code', async () => {
    const [id] = await e.register(e.general);
    const code = (await t.api(`/events/${e.eventId}/attendees/${id}`, { key })).body.ticketCode;
    await t.api(`/events/${e.eventId}/attendees/${id}/cancel`, { key, method: 'POST' });
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${t.server.origin}/t/${code}`);
      const text: string = await page.evaluate(() => document.body.textContent);
      expect(text).toContain('This ticket was cancelled');
      expect(await page.locator('svg').count()).toBe(0);
      await checkLayout(page, width);
      await context.close();
    }
  });
});
