// A ticket's public page /t/{code} and its calendar file over HTTPS: what it shows in each state
// (valid, cancelled, awaiting payment, erased holder), the headers that keep the code in the address
// out of caches, Referers and search engines, the same 404 for every miss, and the pause after many.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ticketByCodeQuery } from '../../core/attendees/public-ticket';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { eventBody } from '../support/fixtures';
import { pendingOrder, pricedTicketType } from '../support/pending-orders';
import { addTicketType, person, register } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { runTessera } from '../support/spawned';
import { onPostgres } from '../support/test-store';

let t: TestServer;
let workspaceId: string;
let key: string;
let e: DoorEvent;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Ticket pages'));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  e = await seedDoorEvent(t, workspaceId, key);
});
afterAll(async () => t?.close());

async function attendee(attendeeId: string) {
  const res = await t.api(`/events/${e.eventId}/attendees/${attendeeId}`, { key });
  expect(res.status).toBe(200);
  return res.body as { ticketCode: string; orderReference: string; firstName: string; lastName: string };
}

const get = (path: string) => t.fetch(`${t.server.origin}${path}`);

function expectPrivate(res: Response) {
  expect(res.headers.get('cache-control')).toBe('private, no-store');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('x-robots-tag')).toMatch(/noindex/);
  expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
}

/** The page's text without tags, spaces collapsed. */
const textOf = (page: string) =>
  page
    .replace(/<style>[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

describe('GET /t/{code}', () => {
  it('shows a valid ticket: event, venue time and zone, venue, holder, type, add-ons, order, QR code and calendar link', async () => {
    const [id] = await e.register(e.vip);
    const a = await attendee(id!);
    const res = await get(`/t/${a.ticketCode}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expectPrivate(res);
    const page = await res.text();
    const text = textOf(page);
    const event = (await t.api(`/events/${e.eventId}`, { key })).body;
    expect(text).toContain(event.name);
    expect(text).toContain('Valid');
    // 2030-05-01T09:00 in Oslo, said with its zone.
    expect(text).toContain('Wed 1 May 2030, 09:00 – Thu 2 May 2030, 17:00');
    expect(text).toContain('Europe/Oslo');
    expect(text).toContain('Main hall, Oslo, NO');
    expect(text).toContain(`${a.firstName} ${a.lastName}`);
    expect(text).toContain('VIP');
    expect(text).toContain('Workshop');
    expect(text).toContain(a.orderReference);
    expect(page).toMatch(/<svg [^>]*role="img"[^>]*aria-label="QR code of this ticket"/);
    expect(page).toContain(`href="/t/${a.ticketCode}.ics"`);
    expect(page).toContain('@media print');
  });

  it('says Online for an online event, in its own zone', async () => {
    const made = await t.api('/events', {
      key,
      method: 'POST',
      body: eventBody({ online: true, venue: undefined, timeZone: 'America/New_York' }),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const typeId = await addTicketType(t, made.body.eventId);
    const [registered] = (await register(t, key, made.body.eventId, [person(typeId)])).body.attendees;
    const page = textOf(await (await get(`/t/${registered.ticketCode}`)).text());
    expect(page).toContain('Where Online');
    expect(page).toContain('Sat 1 May 2027, 09:00 – 17:00 (America/New_York time)');
  });

  it('finds the ticket by its code in lower case too', async () => {
    const [id] = await e.register(e.general);
    const a = await attendee(id!);
    const res = await get(`/t/${a.ticketCode.toLowerCase()}`);
    expect(res.status).toBe(200);
    expect(textOf(await res.text())).toContain(`${a.firstName} ${a.lastName}`);
  });

  it('says a cancelled ticket was cancelled, with no QR code', async () => {
    const [id] = await e.register(e.general);
    const a = await attendee(id!);
    expect((await t.api(`/events/${e.eventId}/attendees/${id}/cancel`, { key, method: 'POST' })).status).toBe(
      200,
    );
    const res = await get(`/t/${a.ticketCode}`);
    expect(res.status).toBe(200);
    expectPrivate(res);
    const page = await res.text();
    expect(textOf(page)).toContain('This ticket was cancelled');
    expect(page).not.toContain('<svg');
  });

  it('says a ticket awaiting payment becomes valid once paid, with no QR code', async () => {
    const db = t.server.services.db;
    const priced = await pricedTicketType(db, e.eventId, 2500, 25);
    const { attendeeIds } = await pendingOrder(db, e.eventId, priced);
    const a = await attendee(attendeeIds[0]!);
    const page = await (await get(`/t/${a.ticketCode}`)).text();
    expect(textOf(page)).toContain('becomes valid once its order is paid');
    expect(page).not.toContain('<svg');
    // Its calendar entry is tentative until the money is in.
    expect(await (await get(`/t/${a.ticketCode}.ics`)).text()).toContain('STATUS:TENTATIVE');
  });

  it('shows no name once the holder is erased by `tessera person erase`, and the ticket still admits', async () => {
    const [id] = await e.register(e.general);
    const a = await attendee(id!);
    const before = await (await get(`/t/${a.ticketCode}`)).text();
    expect(before).toContain(a.lastName);
    const run = await runTessera([
      'person',
      'erase',
      '--workspace',
      workspaceId,
      '--attendee',
      id!,
      '--data',
      t.dataDir,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const res = await get(`/t/${a.ticketCode}`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(textOf(page)).toContain('Name removed at the holder’s request');
    expect(page).not.toContain(a.firstName);
    expect(page).toContain('<svg');
    const ics = await (await get(`/t/${a.ticketCode}.ics`)).text();
    expect(ics).not.toContain(a.firstName);
    const scan = await t.api(`/events/${e.eventId}/check-ins/by-code`, {
      key,
      method: 'POST',
      body: { ticketCode: a.ticketCode },
    });
    expect(scan.body).toMatchObject({ result: 'welcome', admitted: true });
  });
});

describe('GET /t/{code}.ics', () => {
  it('serves the ticket as a calendar file with a file name', async () => {
    const [id] = await e.register(e.general);
    const a = await attendee(id!);
    const res = await get(`/t/${a.ticketCode}.ics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="Test-event-[\w-]+\.ics"$/);
    expectPrivate(res);
    const ics = await res.text();
    const event = (await t.api(`/events/${e.eventId}`, { key })).body;
    expect(ics).toContain('BEGIN:VEVENT');
    expect(ics).toContain(`SUMMARY:${event.name}`);
    expect(ics).toContain('DTSTART:20300501T070000Z');
    expect(ics.replace(/\r\n /g, '')).toContain(`/t/${a.ticketCode}`);
    expect(ics).toContain('STATUS:CONFIRMED');
  });
});

describe('the look-up', () => {
  it.skipIf(onPostgres)("finds a ticket through the code's unique index, scanning no table", async () => {
    const compiled = ticketByCodeQuery(t.server.services.db, 'A'.repeat(26)).compile();
    const plan = await sql
      .raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${compiled.sql.replace('?', "'x'")}`)
      .execute(t.server.services.db);
    const steps = plan.rows.map((r) => r.detail);
    expect(steps.join('\n')).toMatch(/SEARCH attendees USING INDEX attendees_ticket_code/);
    for (const step of steps) expect(step).not.toMatch(/^SCAN/);
  });
});

describe('misses', () => {
  it('answers every miss with the same 404 page: unknown, malformed, too long, another file', async () => {
    const [id] = await e.register(e.general);
    const { ticketCode } = await attendee(id!);
    const unknown = ticketCode.startsWith('A') ? `B${ticketCode.slice(1)}` : `A${ticketCode.slice(1)}`;
    const bodies = new Set<string>();
    for (const path of [
      `/t/${unknown}`,
      `/t/${unknown}.ics`,
      '/t/not-a-code',
      `/t/${ticketCode}1`,
      `/t/${ticketCode}.pdf`,
      `/t/${'A'.repeat(400)}`,
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expectPrivate(res);
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/);
      bodies.add(await res.text());
    }
    expect(bodies.size).toBe(1);
    expect(textOf([...bodies][0]!)).toContain('No such ticket');
  });

  it('pauses lookups from an address after 30 misses a minute, while a real ticket still opens for others', async () => {
    let status = 404;
    let misses = 0;
    while (status === 404 && misses < 100) {
      misses += 1;
      status = (await get(`/t/${'B'.repeat(26)}`)).status;
    }
    expect(status).toBe(429);
    // The earlier test's six misses count in the same minute.
    expect(misses + 6).toBe(31);
    const paused = await get(`/t/${'C'.repeat(26)}`);
    expect(paused.status).toBe(429);
    expect(Number(paused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(textOf(await paused.text())).toContain('Too many tries');
  });
});
