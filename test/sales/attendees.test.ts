// Attendees (spec Attendee, "Attendees" and the personal-data rule; issue "Sales core" 7 and 9):
// the list with cancelled ones, the email filter (peopleScope), status on the newest-first list,
// legacy paging, search, the email filter matching whole addresses only, one attendee (attendeeNotFound), and personal fields withheld or erased.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attendeeFields, expectProblem } from '../support/fixtures';
import { addTicketType, person, register, sampleIds, walkPages } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let reader: string;
let people: string;
let ids: ReturnType<typeof sampleIds>;
let summit: string;
let meetup: string;

const personalFields = ['firstName', 'lastName', 'email', 'company', 'jobTitle', 'answers'] as const;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Attendees workspace', true));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['attendees:read'] }));
  ({ key: people } = await t.key({ workspaceId, scopes: ['attendees:read', 'people:read'] }));
  ids = sampleIds(workspaceId);
  summit = ids.event('summit');
  meetup = ids.event('meetup');
});
afterAll(async () => t.close());

const list = (query: string, key = people, eventId = summit) =>
  t.api(`/events/${eventId}/attendees?${query}`, { key });

async function stored(eventId = summit) {
  return t.server.services.db.selectFrom('attendees').selectAll().where('event_id', '=', eventId).execute();
}

describe('GET /events/{eventId}/attendees', () => {
  it('lists every ticket of the event, cancelled ones included, with the fields of the spec', async () => {
    const { items } = await walkPages(t, people, `/events/${summit}/attendees?limit=500`);
    const rows = await stored();
    expect(items.map((a) => a.attendeeId).sort()).toEqual(rows.map((r) => r.id).sort());
    const cancelled = items.filter((a) => a.status === 'cancelled');
    expect(cancelled.length).toBeGreaterThan(0);
    for (const a of cancelled) expect(a.valid).toBe(false);
    expect(Object.keys(items[0]).sort()).toEqual([...attendeeFields].sort());
  });

  it('marks a ticket valid only when active and its order is paid or free', async () => {
    const { items } = await walkPages(t, people, `/events/${summit}/attendees?limit=500`);
    for (const a of items)
      expect(a.valid, `${a.status}/${a.orderStatus}`).toBe(
        a.status === 'active' && (a.orderStatus === 'paid' || a.orderStatus === 'free'),
      );
    expect(items.some((a) => a.status === 'active' && !a.valid)).toBe(true);
    for (const a of items) expect(a.changedUtc).toBe(a.updatedUtc);
  });

  it('filters by email with people:read, newest first', async () => {
    const rows = await stored();
    const someone = rows.find((r) => r.email !== null)!;
    const res = await list(`email=${encodeURIComponent(someone.email!.toUpperCase())}`);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBe(rows.filter((r) => r.email === someone.email).length);
    for (const a of res.body.data) expect(a.email).toBe(someone.email);
  });

  it('filters by the whole address only, each ticket sent to it, newest first', async () => {
    // SQLite finds the address through the search index, which also names addresses holding it.
    const { key: writer } = await t.key({ workspaceId, scopes: ['attendees:write', 'people:read'] });
    const typeId = await addTicketType(t, meetup);
    const at = (email: string) => person(typeId, { email });
    const address = `ann.${Date.now()}@example.org`;
    for (const batch of [
      [at(address), at(`jo${address}`)],
      [at(`${address}.uk`), at(address.toUpperCase())],
      [at(address.replace('@', '@mail.'))],
    ])
      expect((await register(t, writer, meetup, batch)).status).toBe(201);
    const rows = (await stored(meetup)).filter((r) => r.email === address);
    expect(rows).toHaveLength(2);
    const res = await list(`email=${encodeURIComponent(address)}`, people, meetup);
    expect(res.status).toBe(200);
    const newestFirst = rows.sort((a, b) => (a.created_utc + a.id < b.created_utc + b.id ? 1 : -1));
    expect(res.body.data.map((a: { attendeeId: string }) => a.attendeeId)).toEqual(
      newestFirst.map((r) => r.id),
    );
    expect((await list(`email=${encodeURIComponent(`x${address}`)}`, people, meetup)).body.data).toEqual([]);
    expect((await list(`email=${encodeURIComponent(address)}`, people, summit)).body.data).toEqual([]);
  });

  it('refuses the email filter without people:read with 403 peopleScope', async () => {
    const res = await list('email=someone%40example.com', reader);
    expectProblem(res, 403, 'peopleScope');
  });

  it('filters the newest-first list by status', async () => {
    const rows = await stored();
    for (const status of ['active', 'cancelled']) {
      const { items } = await walkPages(
        t,
        people,
        `/events/${summit}/attendees?sort=-created&status=${status}&limit=50`,
      );
      expect(items.length, status).toBe(rows.filter((r) => r.status === status).length);
      for (const a of items) expect(a.status).toBe(status);
      for (let i = 1; i < items.length; i++)
        expect(items[i - 1].createdUtc >= items[i].createdUtc).toBe(true);
    }
    expectProblem(await list('sort=-created&status=gone'), 400, 'invalidRequest');
  });

  it('keeps page, pageSize and sort: the answer carries page and pageSize', async () => {
    const all = (await walkPages(t, people, `/events/${summit}/attendees?sort=-created&limit=500`)).items;
    const res = await list('sort=-created&page=3&pageSize=20');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page: 3, pageSize: 20, hasMore: true });
    expect(res.body.data.map((a: any) => a.attendeeId)).toEqual(all.slice(40, 60).map((a) => a.attendeeId));
    expectProblem(await list('sort=name'), 400, 'invalidSort');
  });

  it('lists with updatedSince only what changed at or after that moment', async () => {
    const { items } = await walkPages(t, people, `/events/${summit}/attendees?limit=500`);
    const newest = items
      .map((a) => a.updatedUtc)
      .sort()
      .at(-1);
    const res = await list(`updatedSince=${encodeURIComponent(newest)}`);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const a of res.body.data) expect(a.updatedUtc >= newest).toBe(true);
    expectProblem(await list('updatedSince=2026-13-45'), 400, 'invalidUpdatedSince');
  });

  it('answers 404 eventNotFound for an unknown event, 403 missingScope without attendees:read', async () => {
    expectProblem(await list('', people, '00000000-0000-4000-8000-000000000050'), 404, 'eventNotFound');
    const { key } = await t.key({ workspaceId, scopes: ['events:read', 'people:read'] });
    expect(expectProblem(await list('', key), 403, 'missingScope').scope).toBe('attendees:read');
  });
});

describe('GET /events/{eventId}/attendees/search', () => {
  it('finds attendees by part of a name, an email or an order reference, without regard to case', async () => {
    const rows = await stored();
    const someone = rows.find((r) => r.last_name !== null && r.status === 'active')!;
    const byName = await t.api(
      `/events/${summit}/attendees/search?q=${encodeURIComponent(someone.last_name!.toLowerCase())}`,
      {
        key: people,
      },
    );
    expect(byName.status).toBe(200);
    expect(byName.body.data.map((a: any) => a.attendeeId)).toContain(someone.id);
    for (const a of byName.body.data)
      expect(
        `${a.firstName} ${a.lastName} ${a.email} ${a.company} ${a.orderReference}`.toLowerCase(),
      ).toContain(someone.last_name!.toLowerCase());
    const reference = (await t.api(`/events/${summit}/attendees/${someone.id}`, { key: people })).body
      .orderReference;
    const byReference = await t.api(`/events/${summit}/attendees/search?q=${reference}`, { key: people });
    expect(byReference.body.data.map((a: any) => a.attendeeId)).toContain(someone.id);
  });

  it('needs people:read (403 peopleScope) and a q of at least 2 characters (400 invalidRequest)', async () => {
    expectProblem(
      await t.api(`/events/${summit}/attendees/search?q=Hansen`, { key: reader }),
      403,
      'peopleScope',
    );
    expectProblem(
      await t.api(`/events/${summit}/attendees/search?q=H`, { key: people }),
      400,
      'invalidRequest',
    );
  });
});

describe('GET /events/{eventId}/attendees/{attendeeId}', () => {
  it('answers one attendee as the list shows it', async () => {
    const listed = (await list('limit=1')).body.data[0];
    const res = await t.api(`/events/${summit}/attendees/${listed.attendeeId}`, { key: people });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(listed);
  });

  it('answers 404 attendeeNotFound for an unknown id and for an attendee of another event', async () => {
    const unknown = await t.api(`/events/${summit}/attendees/00000000-0000-4000-8000-000000000051`, {
      key: people,
    });
    expectProblem(unknown, 404, 'attendeeNotFound');
    const other = (await list('limit=1', people, ids.event('meetup'))).body.data[0];
    expectProblem(
      await t.api(`/events/${summit}/attendees/${other.attendeeId}`, { key: people }),
      404,
      'attendeeNotFound',
    );
  });
});

describe('personal data on attendees', () => {
  it('gives personal fields null and personalData withheld without people:read, in the list and one by one', async () => {
    const { items } = await walkPages(t, reader, `/events/${summit}/attendees?limit=500`);
    for (const a of items) {
      for (const field of personalFields) expect(a[field], field).toBeNull();
      expect(a.personalData).toBe(a.erased ? 'erased' : 'withheld');
      expect(a.attendeeId).toBeTruthy();
      expect(a.ticketTypeName).toBeTruthy();
    }
    const one = await t.api(`/events/${summit}/attendees/${items[0].attendeeId}`, { key: reader });
    for (const field of personalFields) expect(one.body[field], field).toBeNull();
    expect(one.body.personalData).toBe('withheld');
  });

  it('gives personal fields and answers with people:read', async () => {
    const { items } = await walkPages(t, people, `/events/${summit}/attendees?limit=500`);
    const included = items.filter((a) => !a.erased);
    for (const a of included) {
      expect(a.personalData).toBe('included');
      expect(a.firstName).toBeTruthy();
      expect(a.email).toMatch(/@/);
    }
    const withAnswers = included.find((a) => a.answers !== null);
    expect(withAnswers.answers[ids.question('summit', 'diet')]).toMatch(
      /^(none|vegetarian|vegan|glutenFree)$/,
    );
  });

  it('gives an erased attendee erased true and personalData erased, even with people:read', async () => {
    const { items } = await walkPages(t, people, `/events/${summit}/attendees?limit=500`);
    const erased = items.filter((a) => a.erased);
    expect(erased).toHaveLength(1);
    const one = (await t.api(`/events/${summit}/attendees/${erased[0].attendeeId}`, { key: people })).body;
    expect(one.erased).toBe(true);
    expect(one.personalData).toBe('erased');
    for (const field of personalFields) expect(one[field], field).toBeNull();
    const withoutPeople = (
      await t.api(`/events/${summit}/attendees/${erased[0].attendeeId}`, { key: reader })
    ).body;
    expect(withoutPeople.personalData).toBe('erased');
  });
});
