// Check-in by a ticket's code (POST /events/{eventId}/check-ins/by-code, tool check_in_by_code):
// for twin attendees, one scanned by id and one by code through the same steps, the answers are the
// same (welcome, again, out, and each refusal); the code is read bare, in lower case, with dashes
// or as the ticket's whole address; a malformed code is a 400 naming ticketCode, another event's a
// 404; checkin.created reaches a receiver signed and as its schema says; a retry is replayed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey } from '../../core/admin/demo-workspace';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { expectProblem } from '../support/fixtures';
import { pendingOrder, pricedTicketType } from '../support/pending-orders';
import { type Receiver, startReceiver } from '../support/receiver';
import { callTool } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { verifiedBodies } from '../support/verified-deliveries';

let t: TestServer;
let workspaceId: string;
let key: string;
let e: DoorEvent;
let other: DoorEvent;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestServer({
    env: { TESSERA_SECRET_KEY: 'check-in-by-code-test-master-key-0123456789' },
    delivery: { allowPrivate: true, timeoutMs: 10_000 },
  });
  ({ workspaceId } = await t.workspace('Check-in by code'));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  receiver = await startReceiver();
  e = await seedDoorEvent(t, workspaceId, key);
  other = await seedDoorEvent(t, workspaceId, key);
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

async function codeOf(attendeeId: string, event = e): Promise<string> {
  return (await t.api(`/events/${event.eventId}/attendees/${attendeeId}`, { key })).body.ticketCode;
}

type Step = { doorId?: string; direction?: 'in' | 'out' };

const byId = (attendeeId: string, step: Step = {}, headers: Record<string, string> = {}) =>
  t.api(`/events/${e.eventId}/attendees/${attendeeId}/check-in`, {
    key,
    method: 'POST',
    body: step,
    headers,
  });
const byCode = (ticketCode: string, step: Step = {}, headers: Record<string, string> = {}, as = key) =>
  t.api(`/events/${e.eventId}/check-ins/by-code`, {
    key: as,
    method: 'POST',
    body: { ticketCode, ...step },
    headers,
  });

/** An answer without what differs between twins: ids, names, codes and times. */
function shape(body: any) {
  const { checkInId, firstCheckInUtc, attendee, ...rest } = body;
  return {
    ...rest,
    checkInId: typeof checkInId,
    firstCheckInUtc: firstCheckInUtc === null ? null : typeof firstCheckInUtc,
    attendee: {
      ticketTypeId: attendee.ticketTypeId,
      status: attendee.status,
      orderStatus: attendee.orderStatus,
      valid: attendee.valid,
      checkedIn: attendee.checkedInUtc !== null,
    },
  };
}

/** Runs the steps on one twin by id and the other by code; answers both sequences of answers. */
async function twins(ids: [string, string], steps: Step[]) {
  const code = await codeOf(ids[1]);
  const asId: any[] = [];
  const asCode: any[] = [];
  for (const step of steps) {
    const one = await byId(ids[0], step);
    const two = await byCode(code, step);
    expect(two.status).toBe(one.status);
    asId.push(shape(one.body));
    asCode.push(shape(two.body));
  }
  expect(asCode).toEqual(asId);
  return asCode.map((a) => a.result);
}

describe('POST /events/{eventId}/check-ins/by-code answers as check-in by id', () => {
  it('welcome, again, out, again at an entrance', async () => {
    const ids = (await e.register(e.general, 2)) as [string, string];
    expect(await twins(ids, [{}, {}, { direction: 'out' }, {}])).toEqual([
      'welcome',
      'again',
      'out',
      'again',
    ]);
  });

  it('noReentry where the door lets no one back in', async () => {
    const ids = (await e.register(e.vip, 2)) as [string, string];
    const vip = e.doors.vip;
    expect(await twins(ids, [{ doorId: vip }, { doorId: vip, direction: 'out' }, { doorId: vip }])).toEqual([
      'welcome',
      'out',
      'noReentry',
    ]);
  });

  it('noAddOn at a door needing an add-on the ticket lacks', async () => {
    const ids = (await e.register(e.general, 2)) as [string, string];
    expect(await twins(ids, [{ doorId: e.doors.session }])).toEqual(['noAddOn']);
  });

  it('cancelled for a cancelled ticket', async () => {
    const ids = (await e.register(e.general, 2)) as [string, string];
    for (const id of ids)
      expect(
        (await t.api(`/events/${e.eventId}/attendees/${id}/cancel`, { key, method: 'POST' })).status,
      ).toBe(200);
    expect(await twins(ids, [{}])).toEqual(['cancelled']);
  });

  it('unpaid for a ticket whose order awaits payment', async () => {
    const db = t.server.services.db;
    const priced = await pricedTicketType(db, e.eventId, 4000, 25);
    const { attendeeIds } = await pendingOrder(db, e.eventId, priced, 2);
    expect(await twins(attendeeIds as [string, string], [{}])).toEqual(['unpaid']);
  });
});

describe('what a scanner may read', () => {
  it('takes the ticket address, lower case and dashes', async () => {
    const ids = await e.register(e.general, 3);
    const codes = await Promise.all(ids.map((id) => codeOf(id)));
    const readings = [
      `${t.server.origin}/t/${codes[0]}`,
      codes[1]!.toLowerCase(),
      codes[2]!.match(/.{1,4}/g)!.join('-'),
    ];
    for (const [i, reading] of readings.entries()) {
      const res = await byCode(reading);
      expect(res.status, reading).toBe(200);
      expect(res.body).toMatchObject({ result: 'welcome', attendee: { attendeeId: ids[i] } });
    }
  });

  it('answers 400 naming ticketCode for what is not a code, and 404 for another event’s ticket', async () => {
    for (const reading of ['', 'ABC', 'https://example.org/t/short', '0'.repeat(26)]) {
      const problem = expectProblem(await byCode(reading), 400, 'invalidRequest');
      expect(
        problem.errors.map((error: { field: string }) => error.field),
        reading,
      ).toContain('ticketCode');
    }
    const [theirs] = await other.register(other.general);
    expectProblem(await byCode(await codeOf(theirs!, other)), 404, 'attendeeNotFound');
  });
});

describe('the rules of a write', () => {
  it('replays the first answer to a retry with the same Idempotency-Key', async () => {
    const [id] = await e.register(e.general);
    const code = await codeOf(id!);
    const first = await byCode(code, {}, { 'Idempotency-Key': `code-${id}` });
    const retry = await byCode(code, {}, { 'Idempotency-Key': `code-${id}` });
    expect(first.body.result).toBe('welcome');
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
  });

  it('needs checkins:write, and is refused in the demonstration workspace', async () => {
    const [id] = await e.register(e.general);
    const code = await codeOf(id!);
    const { key: reader } = await t.key({ workspaceId, scopes: ['attendees:read'], expires: 'never' });
    expectProblem(await byCode(code, {}, {}, reader), 403, 'missingScope');
    const demoEventId = (await t.api('/events?limit=1', { key: demoKey.key })).body.data[0].eventId;
    const res = await t.api(`/events/${demoEventId}/check-ins/by-code`, {
      key: demoKey.key,
      method: 'POST',
      body: { ticketCode: code },
    });
    expectProblem(res, 403, 'demoWorkspace');
  });

  it('refuses an unknown field', async () => {
    const [id] = await e.register(e.general);
    const res = await t.api(`/events/${e.eventId}/check-ins/by-code`, {
      key,
      method: 'POST',
      body: { ticketCode: await codeOf(id!), attendeeId: id },
    });
    expectProblem(res, 400, 'invalidRequest');
  });
});

describe('checkin.created', () => {
  it('reaches a receiver signed and as its schema says, for a scan by code', async () => {
    const made = await t.api('/webhooks', {
      key,
      method: 'POST',
      body: { url: receiver.url(), eventTypes: ['checkin.created'] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const [id] = await e.register(e.general);
    const scan = await byCode(await codeOf(id!));
    expect(scan.body.result).toBe('welcome');
    const [body] = await verifiedBodies(t, key, made.body.secret, await receiver.waitFor(1));
    expect(body.type).toBe('checkin.created');
    expect(body.data.attendee.attendeeId).toBe(id);
    expect(body.data.checkIn).toMatchObject({
      checkInId: scan.body.checkInId,
      attendeeId: id,
      result: 'welcome',
      direction: 'in',
      offline: false,
    });
  });
});

describe('tool check_in_by_code', () => {
  it('answers as the REST operation and as check-in by id does', async () => {
    const client = await t.mcp(key);
    const [byTool, byRest] = (await e.register(e.general, 2)) as [string, string];
    const tool = await callTool(client, 'check_in_by_code', {
      eventId: e.eventId,
      ticketCode: `${t.server.origin}/t/${await codeOf(byTool)}`,
    });
    expect(tool.isError).toBe(false);
    const rest = await byId(byRest);
    expect(shape(tool.data)).toEqual(shape(rest.body));
    const bad = await callTool(client, 'check_in_by_code', { eventId: e.eventId, ticketCode: 'nope' });
    expect(bad.isError).toBe(true);
    expect(bad.data.code).toBe('invalidRequest');
    await client.close();
  });
});
