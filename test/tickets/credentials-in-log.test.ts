// The request log leaves out what works as a credential in an address: a ticket's code on its page
// and calendar file, the codes of the page a registration ends on, an order page's id. The log's own
// lines are captured from the real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTicketCode } from '../../core/platform/ticket-codes';
import { loggedPath } from '../../src/http/logged-path';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { capturingLogger, startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let e: DoorEvent;
let code: string;
let slug: string;
const captured = capturingLogger();

beforeAll(async () => {
  t = await startTestServer({ logger: captured.logger });
  const { workspaceId } = await t.workspace('Log');
  const { key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' });
  e = await seedDoorEvent(t, workspaceId, key);
  const published = await t.api(`/events/${e.eventId}/status`, {
    key,
    method: 'PUT',
    body: { status: 'published' },
  });
  slug = published.body.slug;
  const [attendeeId] = await e.register(e.general);
  code = (await t.api(`/events/${e.eventId}/attendees/${attendeeId}`, { key })).body.ticketCode;
});
afterAll(async () => t?.close());

const requestLines = () => captured.lines.filter((line) => line.msg === 'request');

describe('the request log', () => {
  it('writes no ticket code of /t/{code}, /t/{code}.ics or /e/{slug}/registered?t=, found or not', async () => {
    const unknown = newTicketCode();
    const paths = [
      `/t/${code}`,
      `/t/${code.toLowerCase()}`,
      `/t/${code}.ics`,
      `/t/${unknown}`,
      `/e/${slug}/registered?t=${code}&t=${unknown}`,
    ];
    const before = requestLines().length;
    for (const path of paths) await t.fetch(`${t.server.origin}${path}`);
    const lines = requestLines().slice(before);
    expect(lines).toHaveLength(paths.length);
    const text = JSON.stringify(lines);
    expect(text).not.toContain(code);
    expect(text).not.toContain(code.toLowerCase());
    expect(text).not.toContain(unknown);
    // What was asked stays readable: the page, not its key.
    expect(lines.map((line) => line.path)).toEqual([
      '/t/[redacted]',
      '/t/[redacted]',
      '/t/[redacted].ics',
      '/t/[redacted]',
      `/e/${slug}/registered`,
    ]);
  });

  it("writes no order page's id", async () => {
    const orderId = '0190a8c2-7b1e-7c3d-9f00-123456789abc';
    const before = requestLines().length;
    await t.fetch(`${t.server.origin}/e/${slug}/orders/${orderId}`);
    const [line] = requestLines().slice(before);
    expect(line?.path).toBe(`/e/${slug}/orders/[redacted]`);
  });

  it("writes no waiting-list offer's token", async () => {
    const token = 'Qw7rT2yU9iOp3aSd5fGh1jKl8zXc4vBn';
    const before = requestLines().length;
    await t.fetch(`${t.server.origin}/e/${slug}/waiting/${token}`);
    const [line] = requestLines().slice(before);
    expect(line?.path).toBe(`/e/${slug}/waiting/[redacted]`);
    expect(loggedPath(`/e/${slug}/waiting`)).toBe(`/e/${slug}/waiting`);
  });

  it('leaves other paths as they are', () => {
    expect(loggedPath('/api/v1/events/abc/attendees')).toBe('/api/v1/events/abc/attendees');
    expect(loggedPath('/e/summit')).toBe('/e/summit');
    expect(loggedPath('/t/')).toBe('/t/');
  });
});
