// Another site's page cannot register people through the public form (issue 50), in headless
// Chromium: a page served from another origin (a second HTTPS server on loopback, another port;
// 127.0.0.1 is another site than localhost, localhost on another port the same site) submits a
// filled-in registration form to the event's address by itself, even with a form token its server
// fetched. The browser names where the post comes from, so it is refused with the 403 page, no
// attendee made and no mail queued; the form on the service's own page still registers.
// Skips, saying why, where Chromium is not installed.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formTokenField } from '../../core/platform/form-tokens';
import { axeViolations } from '../support/axe';
import { chromiumInstalled, launchChromium } from '../support/chromium';
import { formTokenOf } from '../support/page-forms';
import { type Receiver, startReceiver } from '../support/receiver';
import { startTestServer, type TestServer } from '../support/server';
import { formTicketType, publishedEvent } from '../support/sign-up';

declare const document: any;

const installed = chromiumInstalled('the cross-site form browser test');

describe.skipIf(!installed)("another site's page posting the public form, in a browser", () => {
  let t: TestServer;
  let browser: Browser;
  let attacker: Receiver;
  let event: { eventId: string; slug: string; url: string };
  let typeId: string;

  beforeAll(async () => {
    // E-mail on, its sender never run: what a registration queues stays to be counted.
    t = await startTestServer({
      scheduledJobs: false,
      env: { TESSERA_SMTP_URL: 'smtp://127.0.0.1:9', TESSERA_MAIL_FROM: 'tickets@tessera.test' },
    });
    const { workspaceId } = await t.workspace('Cross-site page');
    const { key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' });
    event = await publishedEvent(t, key, { name: 'Bergen Rust Meetup' });
    typeId = await formTicketType(t, event.eventId, { name: 'Free seat', capacity: 50 });
    attacker = await startReceiver();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await attacker?.close();
    await t?.close();
  });

  const db = () => t.server.services.db;
  const attendees = () =>
    db().selectFrom('attendees').selectAll().where('event_id', '=', event.eventId).execute();
  const mail = () =>
    db().selectFrom('mail_messages').selectAll().where('event_id', '=', event.eventId).execute();

  /** Another site's page: a registration form to the event, filled in and sent by its script. */
  function attackPage(email: string, token: string): string {
    const action = `${t.server.publicOrigin}/e/${event.slug}/register`;
    const field = (name: string, value: string) => `<input type="hidden" name="${name}" value="${value}">`;
    return `<!doctype html><html><body><form method="post" action="${action}">
${field(`qty.${typeId}`, '1')}${field('person.0.firstName', 'Mallory')}${field('person.0.lastName', 'Visitor')}
${field('person.0.email', email)}${field('action', 'register')}${field(formTokenField, token)}
</form><script>document.forms[0].submit()</script></body></html>`;
  }

  it('refuses the form another site submits by itself (403), registering no one and queuing no mail', async () => {
    // A token its server fetched from the event's page: no use, the browser names the other origin.
    const token = formTokenOf(await (await t.fetch(event.url)).text())!;
    expect(token).toBeTruthy();
    attacker.reply((request) => ({
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: attackPage(`visitor${request.path.length}@example.org`, token),
    }));
    const sites = [
      attacker.url('/cross-site'), // https://127.0.0.1:<port>: another site than localhost
      `https://localhost:${attacker.port}/same-site-other-port`, // the same site, another origin
    ];
    for (const from of sites) {
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const page = await context.newPage();
      const answer = page.waitForResponse((res) => res.url().endsWith(`/e/${event.slug}/register`));
      await page.goto(from);
      const res = await answer;
      expect(res.status(), from).toBe(403);
      await page.waitForLoadState();
      const text: string = await page.evaluate(() => document.body.textContent);
      expect(text).toContain('This form was sent from another site');
      expect(text).toContain('Nothing was saved.');
      expect(await page.textContent(`a[href="/e/${event.slug}"]`)).toBe('Back to the form');
      expect(await axeViolations(page), from).toEqual([]);
      await context.close();
    }
    expect(attacker.received.map((r) => r.path)).toEqual(['/cross-site', '/same-site-other-port']);
    expect(await attendees()).toEqual([]);
    expect(await mail()).toEqual([]);
  });

  it("still registers from the service's own page", async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    expect((await page.goto(event.url))?.status()).toBe(200);
    await page.fill('[name="person.0.firstName"]', 'Ingrid');
    await page.fill('[name="person.0.lastName"]', 'Solberg');
    await page.fill('[name="person.0.email"]', 'ingrid@example.org');
    await Promise.all([page.waitForURL(/\/registered\?/), page.click('button[value="register"]')]);
    expect(await page.evaluate(() => document.body.textContent)).toContain("You're registered");
    await context.close();
    expect((await attendees()).map((a) => a.email)).toEqual(['ingrid@example.org']);
    expect((await mail()).length).toBeGreaterThan(0);
  });
});
