// Crew and shifts run live (issue 25, item 4), through the real HTTPS server: crew invited,
// changed (If-Match) and removed; shifts added in the venue's local time, changed and removed; crew
// signing up and dropping, with a full shift refused (409 shiftFull naming it), overlapping shifts
// refused (409 shiftClash naming the other), needed never below the people on a shift; every
// move sends shift.signed_up or shift.dropped, removals one for each person; the API's rules
// (strict bodies naming each field, Idempotency-Key, 412 on a stale If-Match, demoWorkspace,
// moduleOff, missingScope, the personal-data rule); and erasure reaching what a shift's messages
// kept of a volunteer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspaceId } from '../../core/admin/demo-workspace';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { eventBody, expectProblem } from '../support/fixtures';
import { outbox, person, register, sampleIds } from '../support/sales';
import { MutableClock, startTestServer, type TestServer } from '../support/server';

const clock = new MutableClock();
let t: TestServer;
let workspaceId: string;
let organiser: string;
let crewWriter: string;
let crewReader: string;

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Crew writes', true));
  ({ key: organiser } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ({ key: crewWriter } = await t.key({ workspaceId, scopes: ['crew:write'], expires: 'never' }));
  ({ key: crewReader } = await t.key({
    workspaceId,
    scopes: ['crew:read', 'people:read'],
    expires: 'never',
  }));
});
afterAll(async () => t?.close());

/** A new in-person event in Europe/Oslo (summer time: UTC+2 in May). */
async function newEvent(): Promise<string> {
  const res = await t.api('/events', { key: organiser, method: 'POST', body: eventBody() });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.eventId;
}

let people = 0;
async function invite(eventId: string, body: Record<string, unknown> = {}, key = organiser) {
  people += 1;
  const res = await t.api(`/events/${eventId}/crew`, {
    key,
    method: 'POST',
    body: { name: `Volunteer ${people}`, email: `volunteer${people}@example.org`, roles: ['door'], ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function addShift(eventId: string, body: Record<string, unknown> = {}) {
  const res = await t.api(`/events/${eventId}/shifts`, {
    key: organiser,
    method: 'POST',
    body: {
      role: 'door',
      place: { kind: 'area', name: 'Foyer' },
      startsLocal: '2027-05-01T08:00',
      endsLocal: '2027-05-01T12:00',
      needed: 2,
      ...body,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const signUp = (eventId: string, shiftId: string, crewMemberId: string, key = organiser) =>
  t.api(`/events/${eventId}/shifts/${shiftId}/crew`, { key, method: 'POST', body: { crewMemberId } });

const drop = (eventId: string, shiftId: string, crewMemberId: string, key = organiser) =>
  t.api(`/events/${eventId}/shifts/${shiftId}/crew/${crewMemberId}`, { key, method: 'DELETE' });

async function shiftsOf(eventId: string): Promise<any[]> {
  const res = await t.api(`/events/${eventId}/shifts`, { key: crewReader });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function crewOf(eventId: string): Promise<any[]> {
  const res = await t.api(`/events/${eventId}/crew`, { key: crewReader });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The shift messages of an event written since `after` (an outbox id), as type and the two ids. */
async function shiftMessages(eventId: string, after = 0) {
  return (await outbox(t, workspaceId))
    .filter((m) => m.eventId === eventId && m.id > after && m.type.startsWith('shift.'))
    .map((m) => ({
      type: m.type,
      shiftId: m.payload.data.shift.shiftId,
      crewMemberId: m.payload.data.crewMember.crewMemberId,
      shiftCrew: m.payload.data.shift.crewMemberIds,
      memberShifts: m.payload.data.crewMember.shiftIds,
    }));
}

const lastOutboxId = async () => (await outbox(t, workspaceId)).at(-1)?.id ?? 0;

describe('crew members', () => {
  it('invites a crew member (201, ETag) with the list view, personal data only with people:read', async () => {
    const eventId = await newEvent();
    const res = await t.api(`/events/${eventId}/crew`, {
      key: organiser,
      method: 'POST',
      body: {
        name: 'Ada Lovelace',
        email: 'ada@example.org',
        phone: '+47 400 00 000',
        roles: ['door', 'infoDesk'],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(res.body).toMatchObject({
      eventId,
      name: 'Ada Lovelace',
      email: 'ada@example.org',
      phone: '+47 400 00 000',
      roles: ['door', 'infoDesk'],
      attendeeId: null,
      hasTicket: false,
      shiftIds: [],
      lastSeenUtc: null,
      erased: false,
      personalData: 'included',
    });
    expect([await crewOf(eventId)]).toEqual([[res.body]]);
    // Without people:read the writer sees the same member, its personal fields withheld.
    const bare = await invite(eventId, { name: 'Bo', email: 'bo@example.org' }, crewWriter);
    expect(bare).toMatchObject({ name: null, email: null, phone: null, personalData: 'withheld' });
    expect((await crewOf(eventId)).find((m) => m.crewMemberId === bare.crewMemberId).name).toBe('Bo');
  });

  it("links a crew ticket (an attendee of the event) and refuses another event's attendee naming attendeeId", async () => {
    const ids = sampleIds(workspaceId);
    const summit = ids.event('summit');
    const reg = await register(t, organiser, summit, [person(ids.ticketType('summit', 'standard'))]);
    expect(reg.status, JSON.stringify(reg.body)).toBe(201);
    const attendeeId = reg.body.attendees[0].attendeeId;
    const member = await invite(summit, { attendeeId });
    expect(member).toMatchObject({ attendeeId, hasTicket: true });

    const eventId = await newEvent();
    const refused = expectProblem(
      await t.api(`/events/${eventId}/crew`, {
        key: organiser,
        method: 'POST',
        body: { name: 'Cy', attendeeId, roles: ['door', 'door', ' '] },
      }),
      400,
      'invalidRequest',
    );
    expect(refused.errors.map((e: any) => e.field).sort()).toEqual(['attendeeId', 'roles.1', 'roles.2']);
  });

  it('refuses unknown fields and names every bad one', async () => {
    const eventId = await newEvent();
    const res = await t.api(`/events/${eventId}/crew`, {
      key: organiser,
      method: 'POST',
      body: { name: '', email: 'not an address', roles: 'door', shirtSize: 'L' },
    });
    // A field of the wrong type makes it invalidBody; every field is still named.
    const body = expectProblem(res, 400, 'invalidBody');
    expect(body.errors.map((e: any) => e.field).sort()).toEqual(['email', 'name', 'roles', 'shirtSize']);
    expect(await crewOf(eventId)).toEqual([]);
  });

  it('changes a crew member with PATCH: ETag answered, a stale If-Match answers 412, a current one passes', async () => {
    const eventId = await newEvent();
    const member = await invite(eventId);
    const url = `/events/${eventId}/crew/${member.crewMemberId}`;
    const first = await t.api(url, {
      key: organiser,
      method: 'PATCH',
      body: { roles: ['greeter'], phone: '123' },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ roles: ['greeter'], phone: '123', name: member.name });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const stale = await t.api(url, {
      key: organiser,
      method: 'PATCH',
      body: { roles: ['swag'] },
      headers: { 'if-match': '"stale"' },
    });
    expectProblem(stale, 412, 'preconditionFailed');
    const current = await t.api(url, {
      key: organiser,
      method: 'PATCH',
      body: { email: null },
      headers: { 'if-match': etag },
    });
    expect(current.status, JSON.stringify(current.body)).toBe(200);
    expect(current.body).toMatchObject({ roles: ['greeter'], email: null });
    expectProblem(
      await t.api(`/events/${eventId}/crew/${crypto.randomUUID()}`, {
        key: organiser,
        method: 'PATCH',
        body: {},
      }),
      404,
      'notFound',
    );
  });

  it('replays an invitation sent again with the same Idempotency-Key: one crew member', async () => {
    const eventId = await newEvent();
    const send = () =>
      t.api(`/events/${eventId}/crew`, {
        key: organiser,
        method: 'POST',
        body: { name: 'Once' },
        headers: { 'idempotency-key': 'invite-once' },
      });
    const a = await send();
    const b = await send();
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body).toEqual(a.body);
    expect(await crewOf(eventId)).toHaveLength(1);
  });

  it('removes a crew member (204): off each of their shifts first, shift.dropped for each', async () => {
    const eventId = await newEvent();
    const member = await invite(eventId);
    const other = await invite(eventId);
    const morning = await addShift(eventId);
    const afternoon = await addShift(eventId, {
      startsLocal: '2027-05-01T13:00',
      endsLocal: '2027-05-01T15:00',
    });
    for (const s of [morning, afternoon])
      expect((await signUp(eventId, s.shiftId, member.crewMemberId)).status).toBe(200);
    expect((await signUp(eventId, morning.shiftId, other.crewMemberId)).status).toBe(200);
    const since = await lastOutboxId();

    const url = `/events/${eventId}/crew/${member.crewMemberId}`;
    const removed = await t.api(url, { key: organiser, method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect(removed.body).toBeUndefined();
    expect(await shiftMessages(eventId, since)).toEqual([
      {
        type: 'shift.dropped',
        shiftId: morning.shiftId,
        crewMemberId: member.crewMemberId,
        shiftCrew: [other.crewMemberId],
        memberShifts: [afternoon.shiftId],
      },
      {
        type: 'shift.dropped',
        shiftId: afternoon.shiftId,
        crewMemberId: member.crewMemberId,
        shiftCrew: [],
        memberShifts: [],
      },
    ]);
    expect((await crewOf(eventId)).map((m) => m.crewMemberId)).toEqual([other.crewMemberId]);
    expect((await shiftsOf(eventId)).map((s) => s.crewMemberIds)).toEqual([[other.crewMemberId], []]);
    expectProblem(await t.api(url, { key: organiser, method: 'DELETE' }), 404, 'notFound');
  });
});

describe('shifts', () => {
  it("adds a shift in the venue's local time (201, ETag), as the list shows it", async () => {
    const eventId = await newEvent();
    const shift = await addShift(eventId, { needed: 3 });
    expect(shift).toMatchObject({
      eventId,
      role: 'door',
      place: { kind: 'area', id: null, name: 'Foyer' },
      startsLocal: '2027-05-01T08:00',
      endsLocal: '2027-05-01T12:00',
      timeZone: 'Europe/Oslo',
      needed: 3,
      assigned: 0,
      open: 3,
      crewMemberIds: [],
    });
    expect(Date.parse(shift.startsUtc)).toBe(Date.parse('2027-05-01T06:00:00Z'));
    expect(Date.parse(shift.endsUtc)).toBe(Date.parse('2027-05-01T10:00:00Z'));
    expect(await shiftsOf(eventId)).toEqual([shift]);
  });

  it("places a shift at a door of the event by its id, shown by the door's name", async () => {
    const eventId = await newEvent();
    const door = await t.api(`/events/${eventId}/doors`, {
      key: organiser,
      method: 'POST',
      body: { name: 'North gate' },
    });
    expect(door.status, JSON.stringify(door.body)).toBe(201);
    const shift = await addShift(eventId, { place: { kind: 'door', id: door.body.doorId } });
    expect(shift.place).toEqual({ kind: 'door', id: door.body.doorId, name: 'North gate' });
  });

  it('names every bad field of a shift', async () => {
    const eventId = await newEvent();
    const res = await t.api(`/events/${eventId}/shifts`, {
      key: organiser,
      method: 'POST',
      body: {
        role: ' ',
        place: { kind: 'room', id: crypto.randomUUID() },
        startsLocal: '2027-05-01T12:00',
        endsLocal: '2027-05-01T11:00',
        needed: 2,
      },
    });
    const body = expectProblem(res, 400, 'invalidRequest');
    expect(body.errors.map((e: any) => e.field).sort()).toEqual(['endsUtc', 'place.id', 'role']);
    const shape = expectProblem(
      await t.api(`/events/${eventId}/shifts`, {
        key: organiser,
        method: 'POST',
        body: {
          role: 'door',
          place: { kind: 'area' },
          startsLocal: '2027-05-01T12:00',
          needed: -1,
          colour: 'red',
        },
      }),
      400,
      'invalidRequest',
    );
    expect(shape.errors.map((e: any) => e.field).sort()).toEqual(['colour', 'needed']);
    const area = expectProblem(
      await t.api(`/events/${eventId}/shifts`, {
        key: organiser,
        method: 'POST',
        body: { role: 'door', place: { kind: 'area' }, startsLocal: '2027-05-01T12:00', needed: 1 },
      }),
      400,
      'invalidRequest',
    );
    expect(area.errors.map((e: any) => e.field).sort()).toEqual(['endsLocal', 'place.name']);
    expect(await shiftsOf(eventId)).toEqual([]);
  });

  it('replays a shift sent again with the same Idempotency-Key: one shift', async () => {
    const eventId = await newEvent();
    const send = () =>
      t.api(`/events/${eventId}/shifts`, {
        key: organiser,
        method: 'POST',
        body: {
          role: 'swag',
          place: { kind: 'other', name: 'Desk' },
          startsLocal: '2027-05-01T09:00',
          endsLocal: '2027-05-01T10:00',
          needed: 1,
        },
        headers: { 'idempotency-key': 'shift-once' },
      });
    const a = await send();
    const b = await send();
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body).toEqual(a.body);
    expect(await shiftsOf(eventId)).toHaveLength(1);
  });

  it('changes a shift with PATCH (If-Match honoured) and refuses needed below the people on it', async () => {
    const eventId = await newEvent();
    const shift = await addShift(eventId, { needed: 3 });
    const [a, b] = [await invite(eventId), await invite(eventId)];
    for (const m of [a, b]) expect((await signUp(eventId, shift.shiftId, m.crewMemberId)).status).toBe(200);
    const url = `/events/${eventId}/shifts/${shift.shiftId}`;
    const moved = await t.api(url, {
      key: organiser,
      method: 'PATCH',
      body: { startsLocal: '2027-05-01T07:30', role: 'greeter', place: { kind: 'other', name: 'Car park' } },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({
      role: 'greeter',
      place: { kind: 'other', id: null, name: 'Car park' },
      startsLocal: '2027-05-01T07:30',
      endsLocal: '2027-05-01T12:00',
      assigned: 2,
      open: 1,
    });
    const lower = expectProblem(
      await t.api(url, { key: organiser, method: 'PATCH', body: { needed: 1 } }),
      409,
      'capacityBelowTaken',
    );
    expect(lower.taken).toBe(2);
    expectProblem(
      await t.api(url, {
        key: organiser,
        method: 'PATCH',
        body: { needed: 2 },
        headers: { 'if-match': '"old"' },
      }),
      412,
      'preconditionFailed',
    );
    const exact = await t.api(url, {
      key: organiser,
      method: 'PATCH',
      body: { needed: 2 },
      headers: { 'if-match': moved.headers.get('etag')! },
    });
    expect(exact.status, JSON.stringify(exact.body)).toBe(200);
    expect(exact.body).toMatchObject({ needed: 2, assigned: 2, open: 0 });
  });

  it('refuses moving a shift onto another shift of someone on it, naming that shift', async () => {
    const eventId = await newEvent();
    const member = await invite(eventId);
    const morning = await addShift(eventId);
    const noon = await addShift(eventId, { startsLocal: '2027-05-01T12:00', endsLocal: '2027-05-01T14:00' });
    for (const s of [morning, noon])
      expect((await signUp(eventId, s.shiftId, member.crewMemberId)).status).toBe(200);
    const clash = expectProblem(
      await t.api(`/events/${eventId}/shifts/${noon.shiftId}`, {
        key: organiser,
        method: 'PATCH',
        body: { startsLocal: '2027-05-01T11:00' },
      }),
      409,
      'shiftClash',
    );
    expect(clash.shiftId).toBe(morning.shiftId);
    expect((await shiftsOf(eventId))[1].startsLocal).toBe('2027-05-01T12:00');
  });

  it('removes a shift with people on it (204), telling each of them: shift.dropped', async () => {
    const eventId = await newEvent();
    const shift = await addShift(eventId);
    const [a, b] = [await invite(eventId), await invite(eventId)];
    for (const m of [a, b]) expect((await signUp(eventId, shift.shiftId, m.crewMemberId)).status).toBe(200);
    const since = await lastOutboxId();
    const url = `/events/${eventId}/shifts/${shift.shiftId}`;
    expectProblem(
      await t.api(url, { key: organiser, method: 'DELETE', headers: { 'if-match': '"old"' } }),
      412,
      'preconditionFailed',
    );
    const removed = await t.api(url, { key: organiser, method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect(await shiftMessages(eventId, since)).toEqual([
      {
        type: 'shift.dropped',
        shiftId: shift.shiftId,
        crewMemberId: a.crewMemberId,
        shiftCrew: [b.crewMemberId],
        memberShifts: [],
      },
      {
        type: 'shift.dropped',
        shiftId: shift.shiftId,
        crewMemberId: b.crewMemberId,
        shiftCrew: [],
        memberShifts: [],
      },
    ]);
    expect(await shiftsOf(eventId)).toEqual([]);
    expect((await crewOf(eventId)).map((m) => m.shiftIds)).toEqual([[], []]);
    expectProblem(await t.api(url, { key: organiser, method: 'DELETE' }), 404, 'notFound');
  });
});

describe('signing up and dropping', () => {
  it('signs up (shift.signed_up), refuses a full shift naming it, and drops (shift.dropped)', async () => {
    const eventId = await newEvent();
    const shift = await addShift(eventId, { needed: 1 });
    const [a, b] = [await invite(eventId), await invite(eventId)];
    const since = await lastOutboxId();
    const first = await signUp(eventId, shift.shiftId, a.crewMemberId, crewWriter);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      shiftId: shift.shiftId,
      assigned: 1,
      open: 0,
      crewMemberIds: [a.crewMemberId],
    });
    // Signing up again changes nothing and sends nothing.
    expect((await signUp(eventId, shift.shiftId, a.crewMemberId)).body).toEqual(first.body);

    const full = expectProblem(await signUp(eventId, shift.shiftId, b.crewMemberId), 409, 'shiftFull');
    expect(full.shiftId).toBe(shift.shiftId);
    expect(full.detail).toContain(shift.shiftId);

    const dropped = await drop(eventId, shift.shiftId, a.crewMemberId, crewWriter);
    expect(dropped.status).toBe(204);
    expectProblem(await drop(eventId, shift.shiftId, a.crewMemberId), 404, 'notFound');
    expect((await signUp(eventId, shift.shiftId, b.crewMemberId)).status).toBe(200);
    expect(await shiftMessages(eventId, since)).toEqual([
      {
        type: 'shift.signed_up',
        shiftId: shift.shiftId,
        crewMemberId: a.crewMemberId,
        shiftCrew: [a.crewMemberId],
        memberShifts: [shift.shiftId],
      },
      {
        type: 'shift.dropped',
        shiftId: shift.shiftId,
        crewMemberId: a.crewMemberId,
        shiftCrew: [],
        memberShifts: [],
      },
      {
        type: 'shift.signed_up',
        shiftId: shift.shiftId,
        crewMemberId: b.crewMemberId,
        shiftCrew: [b.crewMemberId],
        memberShifts: [shift.shiftId],
      },
    ]);
    const [listed] = await shiftsOf(eventId);
    expect(listed).toMatchObject({ assigned: 1, open: 0, crewMemberIds: [b.crewMemberId] });
  });

  it('refuses a second shift at an overlapping time, naming the one held; touching shifts are fine', async () => {
    const eventId = await newEvent();
    const member = await invite(eventId);
    const morning = await addShift(eventId);
    const overlapping = await addShift(eventId, {
      startsLocal: '2027-05-01T11:00',
      endsLocal: '2027-05-01T13:00',
    });
    const after = await addShift(eventId, { startsLocal: '2027-05-01T12:00', endsLocal: '2027-05-01T13:00' });
    expect((await signUp(eventId, morning.shiftId, member.crewMemberId)).status).toBe(200);
    const clash = expectProblem(
      await signUp(eventId, overlapping.shiftId, member.crewMemberId),
      409,
      'shiftClash',
    );
    expect(clash.shiftId).toBe(morning.shiftId);
    expect((await signUp(eventId, after.shiftId, member.crewMemberId)).status).toBe(200);
    const [listed] = (await crewOf(eventId)).filter((m) => m.crewMemberId === member.crewMemberId);
    expect(listed.shiftIds).toEqual([morning.shiftId, after.shiftId]);
  });

  it('answers 404 notFound for a crew member or shift of another event', async () => {
    const [one, two] = [await newEvent(), await newEvent()];
    const theirs = await invite(two);
    const shift = await addShift(one);
    expectProblem(await signUp(one, shift.shiftId, theirs.crewMemberId), 404, 'notFound');
    const theirShift = await addShift(two);
    const mine = await invite(one);
    expectProblem(await signUp(one, theirShift.shiftId, mine.crewMemberId), 404, 'notFound');
    expectProblem(
      await t.api(`/events/${one}/shifts/${shift.shiftId}/crew`, {
        key: organiser,
        method: 'POST',
        body: { crewMemberId: mine.crewMemberId, extra: 1 },
      }),
      400,
      'invalidRequest',
    );
  });
});

describe('changes seen by updatedSince', () => {
  it('a sign-up and a drop mark the shift changed; a shift nobody touched stays out', async () => {
    const eventId = await newEvent();
    const member = await invite(eventId);
    const taken = await addShift(eventId);
    const untouched = await addShift(eventId, {
      startsLocal: '2027-05-01T14:00',
      endsLocal: '2027-05-01T15:00',
    });
    clock.advance(1000);
    const since = clock.now().toISOString();
    clock.advance(1000);
    expect((await signUp(eventId, taken.shiftId, member.crewMemberId)).status).toBe(200);
    const changed = async () =>
      (
        await t.api(`/events/${eventId}/shifts?updatedSince=${encodeURIComponent(since)}`, {
          key: crewReader,
        })
      ).body.data.map((s: any) => s.shiftId);
    expect(await changed()).toEqual([taken.shiftId]);
    const later = clock.now().toISOString();
    clock.advance(1000);
    expect((await drop(eventId, taken.shiftId, member.crewMemberId)).status).toBe(204);
    const after = await t.api(`/events/${eventId}/shifts?updatedSince=${encodeURIComponent(later)}`, {
      key: crewReader,
    });
    expect(after.body.data.map((s: any) => [s.shiftId, s.assigned])).toEqual([[taken.shiftId, 0]]);
    expect(untouched.updatedUtc < since).toBe(true);
  });
});

describe('refusals', () => {
  it('needs crew:write (a crew:read key is refused naming it)', async () => {
    const eventId = await newEvent();
    const member = await invite(eventId);
    const shift = await addShift(eventId);
    const calls = [
      t.api(`/events/${eventId}/crew`, { key: crewReader, method: 'POST', body: { name: 'X' } }),
      t.api(`/events/${eventId}/crew/${member.crewMemberId}`, { key: crewReader, method: 'PATCH', body: {} }),
      t.api(`/events/${eventId}/crew/${member.crewMemberId}`, { key: crewReader, method: 'DELETE' }),
      t.api(`/events/${eventId}/shifts`, { key: crewReader, method: 'POST', body: {} }),
      t.api(`/events/${eventId}/shifts/${shift.shiftId}`, { key: crewReader, method: 'PATCH', body: {} }),
      t.api(`/events/${eventId}/shifts/${shift.shiftId}`, { key: crewReader, method: 'DELETE' }),
      signUp(eventId, shift.shiftId, member.crewMemberId, crewReader),
      drop(eventId, shift.shiftId, member.crewMemberId, crewReader),
    ];
    for (const res of await Promise.all(calls))
      expect(expectProblem(res, 403, 'missingScope').scope).toBe('crew:write');
  });

  it('answers 409 moduleOff naming crew when the module is switched off', async () => {
    const eventId = await newEvent();
    const member = await invite(eventId);
    const shift = await addShift(eventId);
    const off = await t.api(`/events/${eventId}`, {
      key: organiser,
      method: 'PATCH',
      body: { modules: { crew: false } },
    });
    expect(off.status).toBe(200);
    for (const res of [
      await t.api(`/events/${eventId}/crew`, { key: organiser, method: 'POST', body: { name: 'X' } }),
      await t.api(`/events/${eventId}/shifts/${shift.shiftId}`, { key: organiser, method: 'DELETE' }),
      await signUp(eventId, shift.shiftId, member.crewMemberId),
    ])
      expect(expectProblem(res, 409, 'moduleOff').module).toBe('crew');
  });

  it('is refused in the demonstration workspace with 403 demoWorkspace', async () => {
    const summit = sampleIds(demoWorkspaceId).event('summit');
    const before = await t.api(`/events/${summit}/shifts`, { key: t.server.demoKey });
    expect(before.status).toBe(200);
    const shift = before.body.data[0];
    for (const res of [
      await t.api(`/events/${summit}/crew`, {
        key: t.server.demoKey,
        method: 'POST',
        body: { name: 'Demo' },
      }),
      await t.api(`/events/${summit}/shifts`, {
        key: t.server.demoKey,
        method: 'POST',
        body: {
          role: 'door',
          place: { kind: 'area', name: 'Hall' },
          startsLocal: '2027-06-10T08:00',
          endsLocal: '2027-06-10T09:00',
          needed: 1,
        },
      }),
      await t.api(`/events/${summit}/shifts/${shift.shiftId}`, { key: t.server.demoKey, method: 'DELETE' }),
    ])
      expectProblem(res, 403, 'demoWorkspace');
    expect((await t.api(`/events/${summit}/shifts`, { key: t.server.demoKey })).body).toEqual(before.body);
  });
});

describe('erasure', () => {
  it("leaves no copy of a volunteer who took a shift: their row and the shift messages' copies", async () => {
    const eventId = await newEvent();
    const email = 'erase.me.crew@example.org';
    const member = await invite(eventId, { name: 'Erin Erasable', email, phone: '+47 999 99 999' });
    const shift = await addShift(eventId);
    expect((await signUp(eventId, shift.shiftId, member.crewMemberId)).status).toBe(200);
    expect((await drop(eventId, shift.shiftId, member.crewMemberId)).status).toBe(204);
    const copies = async () =>
      JSON.stringify((await outbox(t, workspaceId)).filter((m) => m.eventId === eventId));
    expect(await copies()).toContain('Erin Erasable');

    const counts = await erasePerson(await operatorContext(t.server.services, workspaceId), { email });
    expect(counts.crewMembers).toBe(1);
    const stored = await copies();
    for (const trace of ['Erin Erasable', email, '+47 999 99 999']) expect(stored).not.toContain(trace);
    const row = await t.server.services.db
      .selectFrom('crew_members')
      .select(['name', 'email', 'phone', 'erased'])
      .where('id', '=', member.crewMemberId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: null, email: null, phone: null, erased: 1 });
    // Nothing personal is written for them again.
    expectProblem(
      await t.api(`/events/${eventId}/crew/${member.crewMemberId}`, {
        key: organiser,
        method: 'PATCH',
        body: { name: 'Erin' },
      }),
      400,
      'invalidRequest',
    );
  });
});
