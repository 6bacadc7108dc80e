// The door scanner (/scan) in headless Chromium with a fake camera: Chromium plays a Y4M file the
// test draws (tickets' QR codes, scene by scene, in frames) as the camera. Signed in by a door link
// (the key in the fragment, never in a request), it reads a ticket held in view once however long
// it is held, and again ("again") only when shown again after leaving the view; a typed cancelled
// code is refused in red with its reason; switched offline, a second ticket is decided against the
// list kept on the phone and queued, and back online the queue is uploaded, its answer shown, and
// the check-in is in the API. At a named door it shows the door's name and decides offline by the
// door's own rules (the server's file), as the upload then confirms. Labels, contrast and axe-core
// checked; screenshots at 390 and 1280 px go to .tmp/screenshots (docs/screenshots/scanner-*.png
// with UPDATE_SCREENSHOTS=1). Skips, saying why, where Chromium is not installed.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe';
import { chromiumInstalled, launchChromium, screenshotDir } from '../support/chromium';
import { lowContrastText } from '../support/contrast';
import { type CuttableLink, cuttableLink } from '../support/cuttable-link';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { writeQrScenes, writeQrVideo } from '../support/fake-camera';
import { startTestServer, type TestServer } from '../support/server';

declare const document: any;
declare const localStorage: any;
declare const navigator: any;
declare const caches: any;

const installed = chromiumInstalled('the scanner page browser test');
const shots = screenshotDir;
// The fake camera's frames a second: scenes are counted in frames, at this rate.
const fps = 5;
const seconds = (n: number) => n * fps;

describe.skipIf(!installed)('the door scanner page in a browser', () => {
  let t: TestServer;
  // The browser reaches the server through a link the offline test cuts.
  let link: CuttableLink;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let e: DoorEvent;
  let key: string;
  let doorKey: string;
  let camera: string;
  let workspaceId: string;
  const requested: string[] = [];
  /** The codes the page checked in by code, in order, with the result each was answered. */
  const checked: { code: string; result: string }[] = [];
  const ticket: Record<string, { id: string; code: string }> = {};
  const address = (name: string) => `${t.server.publicOrigin}/t/${ticket[name]!.code}`;
  const checkedCodes = (name: string) => checked.filter((c) => c.code === ticket[name]!.code);

  beforeAll(async () => {
    t = await startTestServer();
    link = await cuttableLink(t.server.origin);
    ({ workspaceId } = await t.workspace('Scanner page'));
    ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
    e = await seedDoorEvent(t, workspaceId, key);
    const [a, b, c, d, held, shownTwice, general] = await e.register(e.general, 7);
    const [vip] = await e.register(e.vip, 1);
    const registered = { a, b, c, d, held, shownTwice, general, vip };
    for (const [name, id] of Object.entries(registered) as [string, string][]) {
      const res = await t.api(`/events/${e.eventId}/attendees/${id}`, { key });
      ticket[name] = { id, code: res.body.ticketCode };
    }
    await t.api(`/events/${e.eventId}/attendees/${c}/cancel`, { key, method: 'POST', body: {} });
    ({ key: doorKey } = await t.key({
      workspaceId,
      scopes: ['checkins:write', 'checkins:read', 'events:read', 'attendees:read', 'people:read'],
    }));
    camera = join(mkdtempSync(join(tmpdir(), 'scanner-')), 'camera.y4m');
    // What a ticket's QR code holds: its address.
    writeQrVideo(camera, `${t.server.publicOrigin}/t/${ticket.a!.code}`);
    browser = await launchChromium([
      '--use-fake-ui-for-media-stream',
      // The test server's certificate is its own: the service worker's script must load over it too.
      '--ignore-certificate-errors',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${camera}`,
    ]);
    context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 390, height: 844 } });
    page = await context.newPage();
    page.on('request', (r) => requested.push(r.url()));
    page.on('response', async (r) => {
      if (!r.url().endsWith('/check-ins/by-code') || r.status() !== 200) return;
      checked.push({ code: r.request().postDataJSON().ticketCode, result: (await r.json()).result });
    });
    page.on('pageerror', (error) => console.error('scanner page error:', error.message));
    mkdirSync(shots, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await link?.close();
    await t?.close();
  });

  const word = () => page.locator('#answer-word');

  /** Screenshots at both widths of what the page shows now, text contrast and axe-core checked at each. */
  async function shoot(name: string, on: Page = page) {
    for (const width of [390, 1280]) {
      await on.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      expect(await lowContrastText(on), `${name} at ${width} px`).toEqual([]);
      expect(await axeViolations(on), `${name} at ${width} px`).toEqual([]);
      const wider = await on.evaluate(() => document.documentElement.scrollWidth - document.body.clientWidth);
      expect(wider, `${name} at ${width} px`).toBeLessThanOrEqual(0);
      await on.screenshot({ path: join(shots, `scanner-${name}-${width}.png`), fullPage: true });
    }
    await on.setViewportSize({ width: 390, height: 844 });
  }

  it('serves the page under its own policy, with labelled fields and a manifest a phone can install', async () => {
    const answer = await page.goto(`${link.origin}/scan`);
    expect(answer?.status()).toBe(200);
    const headers = answer!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("connect-src 'self'");
    expect(headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(headers['permissions-policy']).toContain('camera=(self)');
    await expect.poll(() => page.locator('#sign-in').isVisible()).toBe(true);
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll('input')]
        .filter((i: any) => i.labels.length === 0)
        .map((i: any) => i.id || i.name),
    );
    expect(unlabelled).toEqual([]);
    expect(await page.evaluate(() => document.activeElement.id)).toBe('key');
    const manifest: any = await (await t.fetch(`${t.server.origin}/scan/manifest.webmanifest`)).json();
    expect(manifest).toMatchObject({ start_url: '/scan', display: 'standalone' });
    for (const icon of manifest.icons) {
      const res = await t.fetch(`${t.server.origin}${icon.src}`);
      expect(res.status, icon.src).toBe(200);
      expect(res.headers.get('content-type')).toBe(icon.type);
      await res.arrayBuffer();
    }
    const worker = await t.fetch(`${t.server.origin}/scan/sw.js`);
    expect(worker.headers.get('service-worker-allowed')).toBe('/scan');
    await worker.arrayBuffer();
    // Every answer read to its end: the test's HTTP client waits for unread ones when it closes.
    const decoder = await t.fetch(`${t.server.origin}/scan/jsqr.js`);
    expect(decoder.status).toBe(200);
    expect(await decoder.text()).toContain('jsQR');
    // The page's script is one file, its modules bundled by the build, with the door's rules it
    // decides offline by: the server's own functions (core/checkin/door-rules.js), not a copy.
    const script = await t.fetch(`${t.server.origin}/scan/scan.js`);
    expect(script.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    const text = await script.text();
    expect(text).toBe(readFileSync(resolve(import.meta.dirname, '../../dist/scan-app/scan.js'), 'utf8'));
    expect(text).not.toMatch(/^\s*(import|export)\b/m);
    expect(text).toMatch(/\/\/ core\/checkin\/door-rules\.js\nfunction refusalAtDoor\(/);
    expect(text).toMatch(/\nfunction entryAtDoor\(/);
    // Its modules are not files of the page's own: nothing but the one script is served.
    for (const file of ['door-rules.js', 'sightings.js', 'scan-store.js', 'other.js']) {
      const other = await t.fetch(`${t.server.origin}/scan/${file}`);
      expect(other.status, file).toBe(404);
      await other.arrayBuffer();
    }
    // The hint names the prefix keys have.
    expect(await page.locator('#key-help').textContent()).toContain('It starts with abk_.');
    // A wrong key is refused beside the form.
    await page.fill('#key', 'abk_not_a_key');
    await page.fill('#event', e.eventId);
    await page.click('button[type=submit]');
    await expect.poll(() => page.locator('#sign-in-error').textContent()).toContain('no longer valid');
    await page.fill('#key', '');
    // The service worker is in place and keeps the page's files.
    const kept = await page.evaluate(async () => {
      const ready = navigator.serviceWorker.ready.then(async () => {
        const cache = await caches.open('tessera-scan-v1');
        return (await cache.keys()).map((r: any) => new URL(r.url).pathname).sort();
      });
      return Promise.race([ready, new Promise((r) => setTimeout(() => r('no worker'), 5000))]);
    });
    expect(kept).toContain('/scan/scan.js');
    await shoot('sign-in');
  });

  it('signs in from a door link whose key never reaches the server, and reads a code held in view once', async () => {
    // Ticket a held still for 6 s (longer than the 4 s after which the page used to read it again),
    // then another ticket for long enough to stop the camera before the video starts over.
    writeQrScenes(
      camera,
      [
        { text: address('a'), frames: seconds(6) },
        { text: address('held'), frames: seconds(30) },
      ],
      { width: 320, height: 240, fps },
    );
    await page.goto(`${link.origin}/scan#key=${doorKey}&event=${e.eventId}`);
    await expect.poll(() => page.locator('#scanner').isVisible()).toBe(true);
    expect(page.url()).toBe(`${link.origin}/scan`);
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('tessera-scan')).key)).toBe(doorKey);
    expect(requested.filter((u) => u.includes(doorKey))).toEqual([]);
    // The door's name, from the doors the API lists.
    await expect.poll(() => page.locator('#where').textContent()).toBe('Main entrance');
    await expect.poll(() => word().textContent(), { timeout: 60_000 }).toBe('Welcome');
    expect(await page.locator('#answer').getAttribute('class')).toContain('welcome');
    expect(await page.locator('#answer').getAttribute('aria-live')).toBe('assertive');
    // The camera's next scene: by the time the page reads it, it has seen ticket a for 6 s.
    await expect.poll(() => checkedCodes('held').length, { timeout: 30_000 }).toBe(1);
    await page.click('#camera-toggle');
    expect(checkedCodes('a')).toEqual([{ code: ticket.a!.code, result: 'welcome' }]);
    expect(checked.map((c) => c.result)).toEqual(['welcome', 'welcome']);
    await expect.poll(() => word().textContent()).toBe('Welcome');
    await expect.poll(() => page.locator('#inside').textContent()).toBe('2');
    expect(await page.locator('#capacity').textContent()).toBe('No limit');
    expect(await page.locator('#search-form').isVisible()).toBe(true);
    await shoot('welcome');
  });

  it('reads a ticket again, answering again, when it is shown again after leaving the view', async () => {
    writeQrScenes(
      camera,
      [
        { text: address('shownTwice'), frames: seconds(2) },
        { text: null, frames: seconds(3) },
        { text: address('shownTwice'), frames: seconds(2) },
        { text: null, frames: seconds(30) },
      ],
      { width: 320, height: 240, fps },
    );
    await page.click('#camera-toggle');
    await expect.poll(() => checkedCodes('shownTwice').length, { timeout: 30_000 }).toBe(2);
    await page.click('#camera-toggle');
    expect(checkedCodes('shownTwice').map((c) => c.result)).toEqual(['welcome', 'again']);
    await expect.poll(() => word().textContent()).toBe('Again');
    expect(await page.locator('#answer').getAttribute('class')).toContain('neutral');
    await shoot('again');
  });

  it('refuses a cancelled ticket in red with the reason in words, typed by hand', async () => {
    await page.fill('#code', ticket.c!.code.toLowerCase());
    await page.press('#code', 'Enter');
    await expect.poll(() => word().textContent()).toBe('Cancelled');
    expect(await page.locator('#answer').getAttribute('class')).toContain('refused');
    expect(await page.locator('#answer-detail').textContent()).toContain('this ticket was cancelled');
    await shoot('refusal');
  });

  it('offline, queues a scan decided against the list on the phone, and uploads it when back', async () => {
    // The page is told it is offline, and the network is gone for real: a request made in the moment
    // a reloaded page is not yet told, or one passing through the service worker, reaches nothing.
    link.cut();
    await context.setOffline(true);
    writeQrVideo(camera, `${t.server.publicOrigin}/t/${ticket.b!.code}`);
    await page.click('#camera-toggle');
    await expect.poll(() => word().textContent(), { timeout: 60_000 }).toBe('Welcome');
    expect(await page.locator('#answer').getAttribute('class')).toContain('provisional');
    expect(await page.locator('#answer-detail').textContent()).toContain('provisional');
    await page.click('#camera-toggle');
    await expect.poll(() => page.locator('#queue-state').textContent()).toBe('1 scan(s) waiting to upload.');
    expect(await page.locator('#queue li').first().textContent()).toContain('waiting to upload');
    await shoot('offline-queue');
    // Reopened without a network: the service worker's copy of the page, the queue still there.
    writeQrVideo(camera, null);
    await page.reload();
    await expect.poll(() => page.locator('#queue-state').textContent()).toBe('1 scan(s) waiting to upload.');
    expect(await page.locator('#network').textContent()).toContain('Offline');
    const before = await t.api(`/events/${e.eventId}/check-ins`, { key });
    expect(before.body.data.filter((s: any) => s.attendeeId === ticket.b!.id)).toEqual([]);

    link.restore();
    await context.setOffline(false);
    await expect
      .poll(() => page.locator('#queue-state').textContent(), { timeout: 15_000 })
      .toBe('All 1 offline scan(s) uploaded.');
    expect(await page.locator('#queue li').first().textContent()).toContain('upload answered: Welcome');
    const after = await t.api(`/events/${e.eventId}/check-ins`, { key });
    const scans = after.body.data.filter((s: any) => s.attendeeId === ticket.b!.id);
    expect(scans.map((s: any) => [s.result, s.offline])).toEqual([['welcome', true]]);
    await shoot('uploaded');
  });

  it('finds a name where the key may read people, and checks the ticket in from the list', async () => {
    const attendee = (await t.api(`/events/${e.eventId}/attendees/${ticket.d!.id}`, { key })).body;
    await page.fill('#search', attendee.lastName);
    await page.press('#search', 'Enter');
    const name = `${attendee.firstName} ${attendee.lastName}`;
    await page.getByRole('button', { name: `Check in ${name}` }).click();
    await expect.poll(() => word().textContent()).toBe('Welcome');
    expect(await page.locator('#answer-detail').textContent()).toContain(name);
  });

  it('shows its door by name and refuses offline a ticket type the door does not admit, as the upload then does', async () => {
    writeQrVideo(camera, null);
    const other = await browser.newContext({
      ignoreHTTPSErrors: true,
      viewport: { width: 390, height: 844 },
    });
    const scanner = await other.newPage();
    scanner.on('pageerror', (error) => console.error('scanner page error:', error.message));
    // The VIP lounge admits VIP tickets only, and nobody back in once out.
    await scanner.goto(`${link.origin}/scan#key=${doorKey}&event=${e.eventId}&door=${e.doors.vip}`);
    await expect.poll(() => scanner.locator('#where').textContent()).toBe('VIP lounge');
    await expect.poll(() => scanner.locator('#list-state').textContent()).toContain('8 ticket(s)');
    await expect.poll(() => scanner.locator('#capacity').textContent()).toBe('No limit');
    expect(await scanner.locator('#door-state').isVisible()).toBe(false);

    link.cut();
    await other.setOffline(true);
    const answerTo = async (name: string, direction: 'in' | 'out' = 'in') => {
      await scanner.check(`input[name=direction][value=${direction}]`);
      await scanner.fill('#code', ticket[name]!.code);
      await scanner.press('#code', 'Enter');
      await expect.poll(() => scanner.locator('#answer').getAttribute('class')).toContain('provisional');
      const shown = await scanner.locator('#answer-word').textContent();
      // The next answer is told apart from this one.
      await scanner.evaluate(() => {
        document.getElementById('answer').className = 'answer idle';
      });
      return shown;
    };
    expect(await answerTo('general')).toBe('Not on list');
    expect(await answerTo('vip')).toBe('Welcome');
    expect(await answerTo('vip', 'out')).toBe('Out');
    expect(await answerTo('vip')).toBe('No re-entry');
    await scanner.check('input[name=direction][value=in]');
    await scanner.fill('#code', ticket.general!.code);
    await scanner.press('#code', 'Enter');
    await expect.poll(() => scanner.locator('#answer-word').textContent()).toBe('Not on list');
    await expect
      .poll(() => scanner.locator('#queue-state').textContent())
      .toBe('5 scan(s) waiting to upload.');
    expect(await scanner.locator('#answer').getAttribute('class')).toContain('refused');
    expect(await scanner.locator('#answer-detail').textContent()).toContain('may not enter at this door');
    await shoot('door-rules-offline', scanner);

    link.restore();
    await other.setOffline(false);
    await expect
      .poll(() => scanner.locator('#queue-state').textContent(), { timeout: 15_000 })
      .toBe('All 5 offline scan(s) uploaded.');
    // What the phone answered offline is what the door answered on upload, scan by scan.
    const rows = await scanner.locator('#queue li').allTextContents();
    expect(rows.map((row) => /on the phone: (.+) · upload answered: (.+)$/.exec(row)!.slice(1))).toEqual([
      ['Not on list', 'Not on list'],
      ['Welcome', 'Welcome'],
      ['Out', 'Out'],
      ['No re-entry', 'No re-entry'],
      ['Not on list', 'Not on list'],
    ]);
    const scans = (await t.api(`/events/${e.eventId}/check-ins`, { key })).body.data;
    expect(scans.filter((s: any) => s.attendeeId === ticket.general!.id)).toEqual([]);
    await other.close();
  });

  it('hides the name search from a key that may not read people, and says the door rules are unknown to it', async () => {
    const { key: narrow } = await t.key({ workspaceId, scopes: ['checkins:write', 'checkins:read'] });
    const other = await browser.newContext({
      ignoreHTTPSErrors: true,
      viewport: { width: 390, height: 844 },
    });
    const scanner = await other.newPage();
    await scanner.goto(`${link.origin}/scan#key=${narrow}&event=${e.eventId}`);
    await expect.poll(() => scanner.locator('#list-state').textContent()).toContain('8 ticket(s)');
    expect(await scanner.locator('#search-form').isVisible()).toBe(false);
    await expect.poll(() => scanner.locator('#door-state').textContent()).toContain('(events:read)');
    await other.close();
  });
});
