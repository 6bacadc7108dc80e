// The share-kit leaderboard (issue 10, item 2: who shared, clicks, registrations brought) through
// the real HTTPS server and the MCP client: exact fields; counts, ranks and order checked against
// the link, click and registration rows (and following them when they change, never kept totals);
// paging; the personal-data rule on the sharer's name; the sharekit module (409 moduleOff) and
// scope (sharekit:read); isolation between workspaces; the MCP tool; erasure reaching sharers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { sampleId } from '../../db/sample/ids';
import { expectProblem } from '../support/fixtures';
import { callTool, sampleIds, walkPages } from '../support/sales';
import { anotherWorkspace, startTestServer, type TestServer } from '../support/server';

const entryFields = [
  'rank',
  'sharerId',
  'kind',
  'name',
  'attendeeId',
  'speakerId',
  'sponsorId',
  'clicks',
  'registrations',
  'lastSharedUtc',
  'erased',
  'personalData',
];
const sorted = (keys: string[]) => [...keys].sort();

let t: TestServer;
let workspaceId: string;
let reader: string;
let peopleReader: string;
let other: { workspaceId: string; key: string };
let summit: string;
let meetup: string;
const board = () => `/events/${summit}/sharekit/leaderboard`;
const sharer = (key: string) => sampleId(workspaceId, `sharer/summit/${key}`);
const db = () => t.server.services.db;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Share kit', true));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['sharekit:read'], expires: 'never' }));
  ({ key: peopleReader } = await t.key({
    workspaceId,
    scopes: ['sharekit:read', 'people:read'],
    expires: 'never',
  }));
  other = await anotherWorkspace(t);
  summit = sampleIds(workspaceId).event('summit');
  meetup = sampleIds(workspaceId).event('meetup');
});
afterAll(async () => t.close());

/** The board as the rows say it should be: counted, ordered and ranked here, independently. */
async function expectedBoard(eventId: string) {
  const sharers = await db().selectFrom('sharers').selectAll().where('event_id', '=', eventId).execute();
  const links = await db().selectFrom('share_links').selectAll().where('event_id', '=', eventId).execute();
  const clicks = await db().selectFrom('share_clicks').select('link_id').execute();
  const registrations = await db()
    .selectFrom('share_registrations')
    .innerJoin('attendees', 'attendees.id', 'share_registrations.attendee_id')
    .select(['share_registrations.link_id', 'attendees.status'])
    .execute();
  const entries = sharers.map((s) => {
    const own = links.filter((l) => l.sharer_id === s.id);
    const ids = new Set(own.map((l) => l.id));
    return {
      sharerId: s.id,
      kind: s.kind,
      name: s.name,
      attendeeId: s.attendee_id,
      speakerId: s.speaker_id,
      sponsorId: s.sponsor_id,
      clicks: clicks.filter((c) => ids.has(c.link_id)).length,
      registrations: registrations.filter((r) => ids.has(r.link_id) && r.status === 'active').length,
      lastSharedUtc:
        own
          .map((l) => l.shared_utc)
          .sort()
          .at(-1) ?? null,
      erased: s.erased === 1,
    };
  });
  entries.sort(
    (a, b) =>
      b.registrations - a.registrations ||
      b.clicks - a.clicks ||
      (a.sharerId < b.sharerId ? -1 : a.sharerId > b.sharerId ? 1 : 0),
  );
  return entries.map((e) => ({
    rank:
      1 +
      entries.filter(
        (x) =>
          x.registrations > e.registrations || (x.registrations === e.registrations && x.clicks > e.clicks),
      ).length,
    ...e,
  }));
}

describe('GET /events/{eventId}/sharekit/leaderboard', () => {
  it('answers a page of entries with exactly the documented fields', async () => {
    const res = await t.api(board(), { key: peopleReader });
    expect(res.status).toBe(200);
    expect(sorted(Object.keys(res.body))).toEqual(['data', 'hasMore', 'nextCursor']);
    expect(res.body.data).toHaveLength(8);
    for (const entry of res.body.data) expect(sorted(Object.keys(entry))).toEqual(sorted(entryFields));
    expect(new Set(res.body.data.map((e: any) => e.kind))).toEqual(
      new Set(['attendee', 'speaker', 'sponsor']),
    );
  });

  it('counts clicks and registrations from the rows, and ranks by registrations, then clicks, then id', async () => {
    const expected = await expectedBoard(summit);
    const { items } = await walkPages(t, peopleReader, board());
    expect(items).toEqual(
      expected.map(({ erased, ...e }) => ({ ...e, erased, personalData: erased ? 'erased' : 'included' })),
    );
    expect(items[0]).toMatchObject({ sharerId: sharer('ingrid'), rank: 1, clicks: 65, registrations: 6 });
    // Equal registrations and clicks share a rank; the next rank skips (1, 2, 2, 4).
    const one = items.find((e) => e.sharerId === sharer('attendee-1'))!;
    const two = items.find((e) => e.sharerId === sharer('attendee-2'))!;
    expect(one.rank).toBe(two.rank);
    const pair = Math.min(items.indexOf(one), items.indexOf(two));
    expect(items[pair + 1].rank).toBe(one.rank);
    expect(items[pair + 2].rank).toBe(one.rank + 2);
    // A cancelled ticket brought by a link does not count; a sharer who never shared has no date.
    expect(items.find((e) => e.sharerId === sharer('attendee-3'))).toMatchObject({
      registrations: 0,
      clicks: 5,
    });
    expect(items.find((e) => e.sharerId === sharer('attendee-4'))).toMatchObject({
      clicks: 0,
      registrations: 0,
      lastSharedUtc: null,
    });
  });

  it('follows the rows as they change: a click, a registration and a cancelled ticket move the board', async () => {
    const { workspaceId: w } = await t.workspace('Share kit changes', true);
    const { key } = await t.key({ workspaceId: w, preset: 'everything', expires: 'never' });
    const eventId = sampleIds(w).event('summit');
    const path = `/events/${eventId}/sharekit/leaderboard`;
    const fourth = (await t.api(path, { key })).body.data.find(
      (e: any) => e.sharerId === sampleId(w, 'sharer/summit/attendee-4'),
    );
    expect(fourth).toMatchObject({ clicks: 0, registrations: 0 });
    // They share a link now; it gets clicks and brings two tickets, one of which is cancelled.
    const linkId = sampleId(w, 'test-link');
    await db()
      .insertInto('share_links')
      .values({
        id: linkId,
        workspace_id: w,
        event_id: eventId,
        sharer_id: fourth.sharerId,
        channel: 'other',
        code: 'test-link',
        shared_utc: new Date().toISOString(),
        created_utc: new Date().toISOString(),
        updated_utc: new Date().toISOString(),
        change_seq: 0,
      })
      .execute();
    for (let i = 0; i < 3; i++)
      await db()
        .insertInto('share_clicks')
        .values({ workspace_id: w, link_id: linkId, clicked_utc: new Date().toISOString() })
        .execute();
    const free = await db()
      .selectFrom('attendees')
      .leftJoin('share_registrations', 'share_registrations.attendee_id', 'attendees.id')
      .leftJoin('sharers', 'sharers.attendee_id', 'attendees.id')
      .select('attendees.id')
      .where('attendees.event_id', '=', eventId)
      .where('attendees.status', '=', 'active')
      .where('share_registrations.attendee_id', 'is', null)
      .where('sharers.id', 'is', null)
      .orderBy('attendees.id')
      .limit(2)
      .execute();
    for (const a of free)
      await db()
        .insertInto('share_registrations')
        .values({
          attendee_id: a.id,
          workspace_id: w,
          link_id: linkId,
          registered_utc: new Date().toISOString(),
        })
        .execute();
    const cancelled = await t.api(`/events/${eventId}/attendees/${free[1]!.id}/cancel`, {
      key,
      method: 'POST',
    });
    expect(cancelled.status).toBe(200);
    const after = (await walkPages(t, key, path)).items;
    expect(after.find((e) => e.sharerId === fourth.sharerId)).toMatchObject({ clicks: 3, registrations: 1 });
    const expected = await expectedBoard(eventId);
    expect(after.map((e) => [e.sharerId, e.rank, e.clicks, e.registrations])).toEqual(
      expected.map((e) => [e.sharerId, e.rank, e.clicks, e.registrations]),
    );
  });

  it('pages with cursor and limit in the same order and ranks as one page', async () => {
    const whole = (await t.api(board(), { key: reader })).body.data;
    const { items, pages } = await walkPages(t, reader, `${board()}?limit=3`);
    expect(pages).toBe(3);
    expect(items).toEqual(whole);
    expectProblem(await t.api(`${board()}?limit=0`, { key: reader }), 400, 'invalidRequest');
    expectProblem(await t.api(`${board()}?cursor=abc`, { key: reader }), 400, 'invalidCursor');
  });
});

describe('the personal-data rule on sharers', () => {
  it('withholds names without people:read, and keeps the ids that say who it is', async () => {
    const { items } = await walkPages(t, reader, board());
    for (const e of items) {
      expect(e.name).toBeNull();
      expect(e.personalData).toBe(e.erased ? 'erased' : 'withheld');
    }
    const speaker = items.find((e) => e.sharerId === sharer('ingrid'))!;
    expect(speaker.speakerId).toBe(sampleId(workspaceId, 'speaker/summit/ingrid'));
    const sponsor = items.find((e) => e.kind === 'sponsor')!;
    expect(sponsor.sponsorId).toBe(sampleId(workspaceId, 'sponsor/summit/fjord'));
    for (const e of items.filter((x) => x.kind === 'attendee')) expect(e.attendeeId).not.toBeNull();
  });

  it('shows names with people:read, and an attendee who erased their data as erased', async () => {
    const { items } = await walkPages(t, peopleReader, board());
    expect(items.find((e) => e.sharerId === sharer('ingrid'))!.name).toBe('Ingrid Solberg');
    expect(items.find((e) => e.kind === 'sponsor')!.name).toBe('Marte Berg');
    const erased = items.filter((e) => e.erased);
    expect(erased).toHaveLength(1);
    expect(erased[0]).toMatchObject({ sharerId: sharer('erased'), name: null, personalData: 'erased' });
    const ticket = await db()
      .selectFrom('attendees')
      .select('erased')
      .where('id', '=', erased[0].attendeeId)
      .executeTakeFirstOrThrow();
    expect(ticket.erased).toBe(1);
  });
});

describe('refusals', () => {
  it('answers 409 moduleOff naming sharekit at the meetup, whose share kit is switched off', async () => {
    const body = expectProblem(
      await t.api(`/events/${meetup}/sharekit/leaderboard`, { key: reader }),
      409,
      'moduleOff',
    );
    expect(body.module).toBe('sharekit');
  });

  it('needs sharekit:read', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['events:read', 'attendees:read', 'people:read'] });
    expect(expectProblem(await t.api(board(), { key }), 403, 'missingScope').scope).toBe('sharekit:read');
  });

  it("answers 404 eventNotFound for another workspace's event", async () => {
    const theirs = sampleIds(other.workspaceId).event('summit');
    expectProblem(
      await t.api(`/events/${theirs}/sharekit/leaderboard`, { key: reader }),
      404,
      'eventNotFound',
    );
    const mine = (await t.api(board(), { key: reader })).body.data.map((e: any) => e.sharerId);
    const theirBoard = (await t.api(`/events/${theirs}/sharekit/leaderboard`, { key: other.key })).body.data;
    expect(theirBoard.some((e: any) => mine.includes(e.sharerId))).toBe(false);
  });
});

describe('through MCP', () => {
  it('answers the same board as REST, as a read-only tool', async () => {
    const client = await t.mcp(peopleReader, {}, '?toolsets=sharekit');
    try {
      const listed = await callTool(client, 'list_sharekit_leaderboard', { eventId: summit, limit: 4 });
      expect(listed.isError).toBe(false);
      expect(listed.data).toEqual((await t.api(`${board()}?limit=4`, { key: peopleReader })).body);
      const off = await callTool(client, 'list_sharekit_leaderboard', { eventId: meetup });
      expect(off).toMatchObject({ isError: true, data: { code: 'moduleOff', module: 'sharekit' } });
      const tool = (await client.listTools()).tools.find((x) => x.name === 'list_sharekit_leaderboard')!;
      expect(tool.annotations?.readOnlyHint).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('erasure', () => {
  it('reaches a sharer by email (a speaker) and by ticket (an attendee), in the database', async () => {
    const operator = await operatorContext(t.server.services, workspaceId);
    const speakerRow = await db()
      .selectFrom('sharers')
      .select('email')
      .where('id', '=', sharer('kenji'))
      .executeTakeFirstOrThrow();
    const byEmail = await erasePerson(operator, { email: speakerRow.email! });
    expect(byEmail.sharers).toBe(1);
    const attendeeSharer = await db()
      .selectFrom('sharers')
      .select('attendee_id')
      .where('id', '=', sharer('attendee-2'))
      .executeTakeFirstOrThrow();
    // Their sharer row holds no email of its own here: found through their ticket.
    await db().updateTable('sharers').set({ email: null }).where('id', '=', sharer('attendee-2')).execute();
    const byTicket = await erasePerson(await operatorContext(t.server.services, workspaceId), {
      attendeeId: attendeeSharer.attendee_id!,
    });
    expect(byTicket.sharers).toBe(1);
    const rows = await db()
      .selectFrom('sharers')
      .selectAll()
      .where('id', 'in', [sharer('kenji'), sharer('attendee-2')])
      .execute();
    for (const row of rows) expect(row).toMatchObject({ name: null, email: null, erased: 1 });
    // Their counts stay on the board: clicks and registrations are not theirs to erase.
    const { items } = await walkPages(t, peopleReader, board());
    expect(items.find((e) => e.sharerId === sharer('kenji'))).toMatchObject({
      name: null,
      erased: true,
      personalData: 'erased',
      registrations: 4,
    });
    const theirs = await db()
      .selectFrom('sharers')
      .select('erased')
      .where('id', '=', sampleId(other.workspaceId, 'sharer/summit/kenji'))
      .executeTakeFirstOrThrow();
    expect(theirs.erased).toBe(0);
  });
});
