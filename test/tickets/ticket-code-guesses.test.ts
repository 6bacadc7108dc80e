// One guess limit for ticket codes, through the real server: the ticket's page and calendar file
// and the page a registration ends on count each code that named no ticket against one limit per
// address (30 a minute), a request with many codes counting each; past it every look-up waits,
// found or not. A key's calls that take codes (check-in by code, offline scans, lead capture) count
// against the key instead (500 a minute), answered 429 rateLimited over REST and MCP alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missesPerKey } from '../../core/platform/ticket-code-guesses';
import { newTicketCode } from '../../core/platform/ticket-codes';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { expectProblem } from '../support/fixtures';
import { MutableClock, startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let key: string;
let workspaceId: string;
let e: DoorEvent;
let slug: string;
let code: string;
const clock = new MutableClock();

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Ticket guesses'));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  e = await seedDoorEvent(t, workspaceId, key);
  const published = await t.api(`/events/${e.eventId}/status`, {
    key,
    method: 'PUT',
    body: { status: 'published' },
  });
  expect(published.status).toBe(200);
  slug = published.body.slug ?? (await t.api(`/events/${e.eventId}`, { key })).body.slug;
  const [attendeeId] = await e.register(e.general);
  code = (await t.api(`/events/${e.eventId}/attendees/${attendeeId}`, { key })).body.ticketCode;
});
afterAll(async () => t?.close());

const get = (path: string) => t.fetch(`${t.server.origin}${path}`);
const unknownCodes = (n: number) => Array.from({ length: n }, () => newTicketCode());
const registered = (codes: string[]) => get(`/e/${slug}/registered?${codes.map((c) => `t=${c}`).join('&')}`);
/** A new minute: every window of the limit has ended. */
const nextMinute = () => clock.advance(61_000);

async function expectPaused(res: Response) {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  const text = await res.text();
  expect(text).toContain('Too many tries');
  expect(text).not.toContain(code);
}

describe('the guess limit of pages, per address', () => {
  it('counts each code of one /registered request as a miss, and refuses the 31st miss on /t and /registered alike', async () => {
    // 29 misses and the real ticket in one request: the ticket is shown, the 29 count.
    const first = await registered([code, ...unknownCodes(29)]);
    expect(first.status).toBe(200);
    expect(await first.text()).toContain(`/t/${code}`);
    // The 30th miss, on the ticket's page: answered as a miss.
    expect((await get(`/t/${newTicketCode()}`)).status).toBe(404);
    // The limit is reached: the 31st look-up waits, on every page, and a real code is not shown either.
    await expectPaused(await get(`/t/${newTicketCode()}`));
    await expectPaused(await get(`/t/${code}`));
    await expectPaused(await get(`/t/${code}.ics`));
    await expectPaused(await registered([code]));
  });

  it('refuses a /registered request whose own misses go past the limit, showing none of its tickets', async () => {
    nextMinute();
    expect((await get(`/t/${code}`)).status).toBe(200);
    await expectPaused(await registered([code, ...unknownCodes(31)]));
    await expectPaused(await get(`/t/${code}`));
  });

  it('counts a code sent twice in one request once', async () => {
    nextMinute();
    const twice = unknownCodes(1)[0]!;
    const codes = [...unknownCodes(14).flatMap((c) => [c, c]), twice, twice];
    // 15 distinct misses sent 30 times count 15: 15 more reach the limit, still answered.
    expect((await registered(codes)).status).toBe(404);
    expect((await registered([code, ...unknownCodes(15)])).status).toBe(200);
    await expectPaused(await registered([code]));
  });
});

describe('the guess limit of calls with a key, per key', () => {
  it(`counts a key's misses of offline scans and check-in by code against the key (${missesPerKey} a minute), then answers 429 rateLimited over REST and MCP`, async () => {
    nextMinute();
    // One whole upload of unknown codes: each scan's own answer, all counted.
    const scannedUtc = new Date(clock.now().getTime() - 60_000).toISOString();
    const upload = await t.api(`/events/${e.eventId}/check-ins/offline`, {
      key,
      method: 'POST',
      body: { scans: unknownCodes(missesPerKey).map((ticketCode) => ({ ticketCode, scannedUtc })) },
    });
    expect(upload.status).toBe(200);
    expect(upload.body.data.every((a: any) => a.error?.code === 'attendeeNotFound')).toBe(true);
    // Paused: even a real ticket's scan waits, whatever it would find.
    const scan = await t.api(`/events/${e.eventId}/check-ins/by-code`, {
      key,
      method: 'POST',
      body: { ticketCode: code },
    });
    expectProblem(scan, 429, 'rateLimited');
    expect(Number(scan.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(scan.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const mcp = await t.mcp(key);
    const tool = (await mcp.callTool({
      name: 'check_in_by_code',
      arguments: { eventId: e.eventId, ticketCode: code },
    })) as { isError?: boolean; structuredContent?: any; content: { text: string }[] };
    expect(tool.isError).toBe(true);
    expect(JSON.stringify(tool)).toContain('rateLimited');
    await mcp.close();
    // The key's guessing pauses neither the address's pages nor another key.
    expect((await get(`/t/${code}`)).status).toBe(200);
    const { key: other } = await t.key({ workspaceId, preset: 'everything', expires: 'never' });
    const byOther = await t.api(`/events/${e.eventId}/check-ins/by-code`, {
      key: other,
      method: 'POST',
      body: { ticketCode: code },
    });
    expect(byOther.status).toBe(200);
  });

  it('answers the miss that goes past the limit with 429, not with attendeeNotFound', async () => {
    nextMinute();
    const scannedUtc = new Date(clock.now().getTime() - 60_000).toISOString();
    const upload = await t.api(`/events/${e.eventId}/check-ins/offline`, {
      key,
      method: 'POST',
      body: { scans: unknownCodes(missesPerKey - 1).map((ticketCode) => ({ ticketCode, scannedUtc })) },
    });
    expect(upload.status).toBe(200);
    const scan = (ticketCode: string) =>
      t.api(`/events/${e.eventId}/check-ins/by-code`, { key, method: 'POST', body: { ticketCode } });
    // The 500th miss is still answered as one; the limit is reached with it.
    expectProblem(await scan(newTicketCode()), 404, 'attendeeNotFound');
    expectProblem(await scan(newTicketCode()), 429, 'rateLimited');
    const lead = await t.api(`/events/${e.eventId}/leads`, {
      key,
      method: 'POST',
      body: { sponsorId: '00000000-0000-7000-8000-000000000000', ticketCode: code, consent: false },
    });
    expectProblem(lead, 429, 'rateLimited');
  });
});
