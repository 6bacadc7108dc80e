// Crew and shifts (issue 10, item 3; spec "### CrewMember", "### Shift" and the Crew endpoints)
// through the real HTTPS server and the MCP client: exact fields, the personal-data rule on name,
// email and phone, shifts in time order with updatedSince, needed/assigned/open and crewMemberIds
// counted from the assignment rows (and each member's shiftIds from the same rows), cursor paging,
// the crew module (409 moduleOff), crew:read, isolation between workspaces, the MCP tools, and
// erasure reaching a volunteer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { sampleId } from '../../db/sample/ids';
import { expectProblem } from '../support/fixtures';
import { callTool, sampleIds, walkPages } from '../support/sales';
import { anotherWorkspace, MutableClock, startTestServer, type TestServer } from '../support/server';

const clock = new MutableClock();
let t: TestServer;
let workspaceId: string;
let reader: string;
let peopleReader: string;
let organiser: string;
let summit: string;
let other: { workspaceId: string; key: string };

const crewFields = [
  'crewMemberId',
  'eventId',
  'name',
  'email',
  'phone',
  'roles',
  'attendeeId',
  'hasTicket',
  'shiftIds',
  'invitedUtc',
  'lastSeenUtc',
  'erased',
  'personalData',
];
const shiftFields = [
  'shiftId',
  'eventId',
  'role',
  'place',
  'startsUtc',
  'endsUtc',
  'startsLocal',
  'endsLocal',
  'timeZone',
  'needed',
  'assigned',
  'open',
  'crewMemberIds',
  'updatedUtc',
];

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Crew workspace', true));
  summit = sampleIds(workspaceId).event('summit');
  ({ key: reader } = await t.key({ workspaceId, scopes: ['crew:read'], expires: 'never' }));
  ({ key: peopleReader } = await t.key({
    workspaceId,
    scopes: ['crew:read', 'people:read'],
    expires: 'never',
  }));
  ({ key: organiser } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  other = await anotherWorkspace(t);
});
afterAll(async () => t.close());

const db = () => t.server.services.db;

/** The assignment rows of an event's shifts: shift -> crew in sign-up order, member -> shifts in time order. */
async function assignmentsOf(eventId: string) {
  const rows = await db()
    .selectFrom('shift_assignments')
    .innerJoin('shifts', 'shifts.id', 'shift_assignments.shift_id')
    .select([
      'shift_assignments.shift_id',
      'shift_assignments.crew_member_id',
      'shift_assignments.created_utc',
      'shifts.starts_utc',
    ])
    .where('shifts.event_id', '=', eventId)
    .execute();
  const bySignUp = [...rows].sort(
    (a, b) => a.created_utc.localeCompare(b.created_utc) || a.crew_member_id.localeCompare(b.crew_member_id),
  );
  const byTime = [...rows].sort(
    (a, b) => a.starts_utc.localeCompare(b.starts_utc) || a.shift_id.localeCompare(b.shift_id),
  );
  const crewOf = (shiftId: string) =>
    bySignUp.filter((r) => r.shift_id === shiftId).map((r) => r.crew_member_id);
  const shiftsOf = (memberId: string) =>
    byTime.filter((r) => r.crew_member_id === memberId).map((r) => r.shift_id);
  return { rows, crewOf, shiftsOf };
}

describe('GET /events/{eventId}/crew', () => {
  it("lists the event's crew oldest change first, with exactly the spec's fields, from the rows", async () => {
    const { items } = await walkPages(t, peopleReader, `/events/${summit}/crew`);
    const stored = await db()
      .selectFrom('crew_members')
      .selectAll()
      .where('event_id', '=', summit)
      .orderBy('change_seq')
      .execute();
    expect(items.map((m) => m.crewMemberId)).toEqual(stored.map((m) => m.id));
    expect(items.length).toBe(8);
    const { shiftsOf } = await assignmentsOf(summit);
    for (const [i, m] of items.entries()) {
      const row = stored[i]!;
      expect(Object.keys(m).sort()).toEqual([...crewFields].sort());
      expect(m).toEqual({
        crewMemberId: row.id,
        eventId: summit,
        name: row.name,
        email: row.email,
        phone: row.phone,
        roles: JSON.parse(row.roles),
        attendeeId: row.attendee_id,
        hasTicket: m.hasTicket,
        shiftIds: shiftsOf(row.id),
        invitedUtc: row.invited_utc,
        lastSeenUtc: row.last_seen_utc,
        erased: row.erased === 1,
        personalData: row.erased === 1 ? 'erased' : 'included',
      });
    }
    expect(new Set(items.flatMap((m) => m.roles))).toEqual(
      new Set(['door', 'infoDesk', 'room', 'greeter', 'swag']),
    );
    expect(items.some((m) => m.phone !== null && m.email?.endsWith('@example.com'))).toBe(true);
  });

  it('says hasTicket when their crew ticket is valid, as the ticket and its order say', async () => {
    const { items } = await walkPages(t, peopleReader, `/events/${summit}/crew`);
    const ticketed = items.filter((m) => m.attendeeId !== null);
    expect(ticketed.length).toBeGreaterThan(0);
    for (const m of items) {
      if (m.attendeeId === null) {
        expect(m.hasTicket).toBe(false);
        continue;
      }
      const ticket = await db()
        .selectFrom('attendees')
        .innerJoin('orders', 'orders.id', 'attendees.order_id')
        .innerJoin('ticket_types', 'ticket_types.id', 'attendees.ticket_type_id')
        .select(['attendees.status', 'attendees.email', 'orders.status as order_status', 'ticket_types.crew'])
        .where('attendees.id', '=', m.attendeeId)
        .executeTakeFirstOrThrow();
      expect(ticket.crew).toBe(1);
      expect(m.hasTicket).toBe(ticket.status === 'active' && ['paid', 'free'].includes(ticket.order_status));
      expect(m.email).toBe(ticket.email);
    }
    expect(ticketed.some((m) => m.hasTicket)).toBe(true);
  });

  it('withholds name, email and phone without people:read, and shows an erased member as erased', async () => {
    const { items } = await walkPages(t, reader, `/events/${summit}/crew`);
    for (const m of items) {
      expect([m.name, m.email, m.phone]).toEqual([null, null, null]);
      expect(m.personalData).toBe(m.erased ? 'erased' : 'withheld');
      expect(m.roles.length).toBeGreaterThan(0);
    }
    const erased = (await walkPages(t, peopleReader, `/events/${summit}/crew`)).items.filter((m) => m.erased);
    expect(erased).toHaveLength(1);
    expect(erased[0]).toMatchObject({ name: null, email: null, phone: null, personalData: 'erased' });
    expect(erased[0].shiftIds.length).toBeGreaterThan(0);
  });

  it('pages with cursor and limit, never skipping or repeating a member', async () => {
    const whole = (await t.api(`/events/${summit}/crew`, { key: reader })).body.data;
    const { items, pages } = await walkPages(t, reader, `/events/${summit}/crew?limit=3`);
    expect(pages).toBe(3);
    expect(items).toEqual(whole);
    const first = await t.api(`/events/${summit}/crew?limit=3`, { key: reader });
    // A cursor of the crew list is not one of the shifts list.
    expectProblem(
      await t.api(`/events/${summit}/shifts?cursor=${encodeURIComponent(first.body.nextCursor)}`, {
        key: reader,
      }),
      400,
      'invalidCursor',
    );
  });

  it('keeps only members changed at or after updatedSince, and refuses a bad value with 400 invalidUpdatedSince', async () => {
    const list = (query: string) => t.api(`/events/${summit}/crew?${query}`, { key: reader });
    const whole = (await list('')).body.data;
    expect((await list('updatedSince=2000-01-01T00:00:00Z')).body.data).toEqual(whole);
    expect((await list('updatedSince=2999-01-01T00:00:00Z')).body.data).toEqual([]);
    expectProblem(await list('updatedSince=yesterday'), 400, 'invalidUpdatedSince');
  });
});

describe('GET /events/{eventId}/shifts', () => {
  it("lists the event's shifts in time order, with exactly the spec's fields", async () => {
    const { items } = await walkPages(t, reader, `/events/${summit}/shifts`);
    const stored = await db()
      .selectFrom('shifts')
      .selectAll()
      .where('event_id', '=', summit)
      .orderBy('starts_utc')
      .orderBy('id')
      .execute();
    expect(items.map((s) => s.shiftId)).toEqual(stored.map((s) => s.id));
    expect(items.length).toBe(7);
    const starts = items.map((s) => s.startsUtc);
    expect(starts).toEqual([...starts].sort());
    for (const [i, s] of items.entries()) {
      const row = stored[i]!;
      expect(Object.keys(s).sort()).toEqual([...shiftFields].sort());
      expect(Object.keys(s.place).sort()).toEqual(['id', 'kind', 'name']);
      expect(s).toMatchObject({
        eventId: summit,
        role: row.role,
        place: { kind: row.place_kind, id: row.place_id },
        startsUtc: row.starts_utc,
        endsUtc: row.ends_utc,
        timeZone: 'Europe/Oslo',
        needed: row.needed,
        updatedUtc: row.updated_utc,
      });
      expect(s.startsLocal).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    }
    expect(new Set(items.map((s) => s.place.kind))).toEqual(new Set(['door', 'room', 'area', 'other']));
  });

  it("names each place: its own name, or the door's or room's", async () => {
    const { items } = await walkPages(t, reader, `/events/${summit}/shifts`);
    for (const s of items) {
      const stored = await db()
        .selectFrom('shifts')
        .select('place_name')
        .where('id', '=', s.shiftId)
        .executeTakeFirstOrThrow();
      if (s.place.kind === 'door' || s.place.kind === 'room') {
        const table = s.place.kind === 'door' ? 'doors' : 'rooms';
        const place = await db()
          .selectFrom(table)
          .select(['name', 'event_id'])
          .where('id', '=', s.place.id)
          .executeTakeFirstOrThrow();
        expect(place.event_id).toBe(summit);
        expect(s.place.name).toBe(stored.place_name ?? place.name);
      } else {
        expect(s.place.id).toBeNull();
        expect(s.place.name).toBe(stored.place_name);
      }
    }
  });

  it('counts needed, assigned and open from the assignment rows, and the crew agrees', async () => {
    const { items } = await walkPages(t, reader, `/events/${summit}/shifts`);
    const { rows, crewOf } = await assignmentsOf(summit);
    for (const s of items) {
      expect(s.crewMemberIds).toEqual(crewOf(s.shiftId));
      expect(s.assigned).toBe(rows.filter((r) => r.shift_id === s.shiftId).length);
      expect(s.open).toBe(Math.max(0, s.needed - s.assigned));
    }
    // Full, with places open, and with more people than needed (open stays 0).
    expect(items.some((s) => s.assigned === s.needed && s.needed > 0)).toBe(true);
    expect(items.some((s) => s.open > 0 && s.assigned > 0)).toBe(true);
    expect(items.some((s) => s.assigned === 0 && s.open === s.needed)).toBe(true);
    expect(items.some((s) => s.assigned > s.needed && s.open === 0)).toBe(true);
    // Each member's shiftIds are the shifts that list them, and the other way round.
    const crew = (await walkPages(t, reader, `/events/${summit}/crew`)).items;
    for (const m of crew) {
      const listing = items.filter((s) => s.crewMemberIds.includes(m.crewMemberId)).map((s) => s.shiftId);
      expect(m.shiftIds).toEqual(listing);
    }
    for (const s of items)
      for (const id of s.crewMemberIds)
        expect(crew.find((m) => m.crewMemberId === id)?.shiftIds).toContain(s.shiftId);
  });

  it('pages with cursor and limit in time order', async () => {
    const whole = (await t.api(`/events/${summit}/shifts`, { key: reader })).body.data;
    const { items, pages } = await walkPages(t, reader, `/events/${summit}/shifts?limit=2`);
    expect(pages).toBe(4);
    expect(items).toEqual(whole);
  });

  it('answers only shifts changed after updatedSince, still in time order; a sign-up counts at once', async () => {
    const before = (await walkPages(t, reader, `/events/${summit}/shifts`)).items;
    const open = before.filter((s) => s.open > 0);
    expect(open.length).toBeGreaterThan(1);
    const since = clock.now().toISOString();
    clock.advance(1000);
    const now = clock.now().toISOString();
    // A volunteer signs up for the last open shift and the first one (a writer touches the shift).
    const volunteer = sampleId(workspaceId, 'crew/summit/tuva');
    const touched = [open[open.length - 1]!, open[0]!];
    for (const shift of touched) {
      await db()
        .insertInto('shift_assignments')
        .values({ shift_id: shift.shiftId, crew_member_id: volunteer, created_utc: now })
        .execute();
      await db()
        .updateTable('shifts')
        .set({ updated_utc: now, change_seq: 2_000_000_000 + touched.indexOf(shift) })
        .where('id', '=', shift.shiftId)
        .execute();
    }
    const { items } = await walkPages(
      t,
      reader,
      `/events/${summit}/shifts?limit=1&updatedSince=${encodeURIComponent(since)}`,
    );
    expect(items.map((s) => s.shiftId)).toEqual([open[0]!.shiftId, open[open.length - 1]!.shiftId]);
    for (const s of items) {
      const was = before.find((b) => b.shiftId === s.shiftId)!;
      expect(s.assigned).toBe(was.assigned + 1);
      expect(s.open).toBe(Math.max(0, was.needed - was.assigned - 1));
      expect(s.crewMemberIds).toEqual([...was.crewMemberIds, volunteer]);
      expect(s.updatedUtc).toBe(now);
    }
    const member = (await walkPages(t, reader, `/events/${summit}/crew`)).items.find(
      (m) => m.crewMemberId === volunteer,
    );
    const { shiftsOf } = await assignmentsOf(summit);
    expect(member.shiftIds).toEqual(shiftsOf(volunteer));
    expect(member.shiftIds).toEqual(expect.arrayContaining(touched.map((s) => s.shiftId)));
    expectProblem(
      await t.api(`/events/${summit}/shifts?updatedSince=yesterday`, { key: reader }),
      400,
      'invalidUpdatedSince',
    );
  });
});

describe('refusals', () => {
  it('answers 409 moduleOff naming crew when the organiser switches the module off', async () => {
    const off = await t.api(`/events/${summit}`, {
      key: organiser,
      method: 'PATCH',
      body: { modules: { crew: false } },
    });
    expect(off.status).toBe(200);
    try {
      for (const path of ['crew', 'shifts'])
        expect(
          expectProblem(await t.api(`/events/${summit}/${path}`, { key: reader }), 409, 'moduleOff').module,
        ).toBe('crew');
    } finally {
      await t.api(`/events/${summit}`, {
        key: organiser,
        method: 'PATCH',
        body: { modules: { crew: true } },
      });
    }
    expect((await t.api(`/events/${summit}/crew`, { key: reader })).status).toBe(200);
    // The sample's forum has the crew module off.
    const forum = sampleIds(workspaceId).event('forum');
    expectProblem(await t.api(`/events/${forum}/shifts`, { key: reader }), 409, 'moduleOff');
  });

  it('needs crew:read', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['events:read', 'people:read'] });
    for (const path of ['crew', 'shifts']) {
      const res = await t.api(`/events/${summit}/${path}`, { key });
      expect(expectProblem(res, 403, 'missingScope').scope).toBe('crew:read');
    }
  });

  it("answers 404 eventNotFound for another workspace's event and leaks none of its crew", async () => {
    const theirs = sampleIds(other.workspaceId).event('summit');
    for (const path of ['crew', 'shifts']) {
      const res = await t.api(`/events/${theirs}/${path}`, { key: peopleReader });
      expectProblem(res, 404, 'eventNotFound');
      expect(JSON.stringify(res.body)).not.toContain(sampleId(other.workspaceId, 'crew/summit/henrik'));
    }
    const mine = (await t.api(`/events/${summit}/crew`, { key: peopleReader })).body.data;
    expect(mine.every((m: any) => m.eventId === summit)).toBe(true);
  });
});

describe('through MCP', () => {
  it('lists crew and shifts with the same answers as REST, as read-only tools', async () => {
    const client = await t.mcp(peopleReader, {}, '?toolsets=crew');
    try {
      for (const [tool, path] of [
        ['list_crew', 'crew'],
        ['list_shifts', 'shifts'],
      ] as const) {
        const listed = await callTool(client, tool, { eventId: summit, limit: 3 });
        expect(listed.isError, tool).toBe(false);
        const rest = await t.api(`/events/${summit}/${path}?limit=3`, { key: peopleReader });
        expect(listed.data.data, tool).toEqual(rest.body.data);
        const next = await callTool(client, tool, {
          eventId: summit,
          limit: 3,
          cursor: listed.data.nextCursor,
        });
        const restNext = await t.api(
          `/events/${summit}/${path}?limit=3&cursor=${encodeURIComponent(rest.body.nextCursor)}`,
          { key: peopleReader },
        );
        expect(next.data.data, tool).toEqual(restNext.body.data);
      }
      const forum = await callTool(client, 'list_shifts', { eventId: sampleIds(workspaceId).event('forum') });
      expect(forum.isError).toBe(true);
      expect(forum.data.code).toBe('moduleOff');
      const tools = (await client.listTools()).tools.filter((x) =>
        ['list_crew', 'list_shifts'].includes(x.name),
      );
      expect(tools).toHaveLength(2);
      for (const x of tools) expect(x.annotations?.readOnlyHint).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('erasure', () => {
  it('reaches a volunteer by their email and by their crew ticket, in the database', async () => {
    const ticketed = await db()
      .selectFrom('crew_members')
      .selectAll()
      .where('event_id', '=', summit)
      .where('attendee_id', 'is not', null)
      .executeTakeFirstOrThrow();
    // Their ticket's address is the one they volunteer with.
    const counts = await erasePerson(await operatorContext(t.server.services, workspaceId), {
      attendeeId: ticketed.attendee_id!,
    });
    expect(counts.crewMembers).toBe(1);
    const row = await db()
      .selectFrom('crew_members')
      .selectAll()
      .where('id', '=', ticketed.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: null, email: null, phone: null, erased: 1 });
    expect(row.updated_utc >= ticketed.updated_utc).toBe(true);
    const shown = (await walkPages(t, peopleReader, `/events/${summit}/crew`)).items.find(
      (m) => m.crewMemberId === ticketed.id,
    );
    expect(shown).toMatchObject({
      name: null,
      email: null,
      phone: null,
      erased: true,
      personalData: 'erased',
    });
    expect(shown.roles).toEqual(JSON.parse(ticketed.roles));

    // A volunteer found by email alone; another workspace's volunteer with the address is not touched.
    const email = 'henrik.bakke.crew@example.com';
    expect(
      (await erasePerson(await operatorContext(t.server.services, workspaceId), { email })).crewMembers,
    ).toBe(1);
    const theirs = await db()
      .selectFrom('crew_members')
      .select('name')
      .where('workspace_id', '=', other.workspaceId)
      .where('email', '=', email)
      .execute();
    expect(theirs).toEqual([{ name: 'Henrik Bakke' }]);
  });
});
