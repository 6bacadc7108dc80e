// Programme sessions (spec "Programme"): list (oldest change first, cursor,
// updatedSince), get (ETag, 304), create (201, Idempotency-Key, title at most 300 characters,
// room/track/speakers of the event, the local or the UTC pair with the UTC pair winning, one
// session per room at a time: 409 clash naming `sessions` unless allowClash), PATCH with the
// same rules, the programme module switched off, and the demonstration workspace.
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspaceId } from '../../core/admin/demo-workspace';
import { eventBody, expectProblem } from '../support/fixtures';
import { walkPages } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { addRoom, addSpeaker, programmeIds } from './programme-support';

let t: TestServer;
let workspaceId: string;
let reader: string;
let writer: string;
let everything: string;
let ids: ReturnType<typeof programmeIds>;
let summit: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Programme workspace', true));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['program:read'] }));
  ({ key: writer } = await t.key({ workspaceId, scopes: ['program:write'] }));
  ({ key: everything } = await t.key({ workspaceId, preset: 'everything' }));
  ids = programmeIds(workspaceId);
  summit = ids.event('summit');
});
afterAll(async () => t.close());

const sessionsPath = (eventId: string) => `/events/${eventId}/sessions`;
const create = (eventId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.api(sessionsPath(eventId), { key: writer, method: 'POST', body, headers });
const patch = (eventId: string, sessionId: string, body: unknown, headers: Record<string, string> = {}) =>
  t.api(`${sessionsPath(eventId)}/${sessionId}`, { key: writer, method: 'PATCH', body, headers });

/** A new in-person event (made through the API) with one room; venue time Europe/Oslo unless told. */
async function eventWithRoom(timeZone = 'Europe/Oslo'): Promise<{ eventId: string; roomId: string }> {
  const res = await t.api('/events', {
    key: everything,
    method: 'POST',
    body: eventBody({ timeZone, startsLocal: '2027-06-10T09:00', endsLocal: '2027-06-11T17:00' }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const eventId = res.body.eventId as string;
  return { eventId, roomId: await addRoom(t, eventId, { name: 'Hall A', capacity: 100 }) };
}

async function sessionCount(eventId: string): Promise<number> {
  const row = await t.server.services.db
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('GET /events/{eventId}/sessions', () => {
  it('lists every session of the summit programme with the Session fields, oldest change first', async () => {
    const res = await t.api(sessionsPath(summit), { key: reader });
    expect(res.status).toBe(200);
    expect(res.body.hasMore).toBe(false);
    expect(res.body.nextCursor).toBeNull();
    const rows = await t.server.services.db
      .selectFrom('sessions')
      .select(['id'])
      .where('event_id', '=', summit)
      .orderBy('change_seq')
      .execute();
    expect(rows.length).toBeGreaterThanOrEqual(15);
    expect(res.body.data.map((s: any) => s.sessionId)).toEqual(rows.map((r) => r.id));
    const kinds = new Set(res.body.data.map((s: any) => s.kind));
    for (const kind of ['keynote', 'talk', 'workshop', 'panel', 'break', 'meal'])
      expect(kinds).toContain(kind);
    const opening = res.body.data.find((s: any) => s.sessionId === ids.session('summit', 'opening'));
    expect(Object.keys(opening).sort()).toEqual(
      [
        'sessionId',
        'eventId',
        'title',
        'summary',
        'kind',
        'roomId',
        'trackId',
        'startsUtc',
        'endsUtc',
        'startsLocal',
        'endsLocal',
        'timeZone',
        'minutes',
        'capacity',
        'language',
        'joinProvider',
        'speakerIds',
        'draft',
        'updatedUtc',
      ].sort(),
    );
    expect(opening).toMatchObject({
      eventId: summit,
      kind: 'keynote',
      roomId: ids.room('summit', 'main'),
      trackId: ids.track('summit', 'strategy'),
      timeZone: 'Europe/Oslo',
      minutes: 45,
      speakerIds: [ids.speaker('summit', 'ingrid')],
      joinProvider: null,
    });
    expect(opening.startsLocal).toBe(
      DateTime.fromISO(opening.startsUtc, { zone: 'utc' })
        .setZone('Europe/Oslo')
        .toFormat("yyyy-MM-dd'T'HH:mm"),
    );
    const panel = res.body.data.find((s: any) => s.sessionId === ids.session('summit', 'panel'));
    expect(panel.speakerIds).toEqual(['kenji', 'lars', 'chloe'].map((k) => ids.speaker('summit', k)));
    const workshop = res.body.data.find((s: any) => s.sessionId === ids.session('summit', 'discovery'));
    expect(workshop.capacity).toBe(24);
  });

  it('pages with cursors without skipping or repeating, in the same order', async () => {
    const all = (await t.api(sessionsPath(summit), { key: reader })).body.data.map((s: any) => s.sessionId);
    const { items, pages } = await walkPages(t, reader, `${sessionsPath(summit)}?limit=4`);
    expect(pages).toBe(Math.ceil(all.length / 4));
    expect(items.map((s) => s.sessionId)).toEqual(all);
  });

  it('answers only what changed at or after updatedSince, and 400 invalidUpdatedSince for a bad value', async () => {
    const { eventId, roomId } = await eventWithRoom();
    const first = await create(eventId, {
      title: 'First',
      roomId,
      startsUtc: '2027-06-10T07:00:00Z',
      endsUtc: '2027-06-10T08:00:00Z',
    });
    await new Promise((r) => setTimeout(r, 5));
    const second = await create(eventId, {
      title: 'Second',
      roomId,
      startsUtc: '2027-06-10T08:00:00Z',
      endsUtc: '2027-06-10T09:00:00Z',
    });
    const since = await t.api(
      `${sessionsPath(eventId)}?updatedSince=${encodeURIComponent(second.body.updatedUtc)}`,
      { key: reader },
    );
    expect(since.body.data.map((s: any) => s.sessionId)).toEqual([second.body.sessionId]);
    expect(first.body.updatedUtc < second.body.updatedUtc).toBe(true);
    expectProblem(
      await t.api(`${sessionsPath(eventId)}?updatedSince=yesterday`, { key: reader }),
      400,
      'invalidUpdatedSince',
    );
  });

  it('answers 404 eventNotFound for an event of no workspace and for another workspace’s event', async () => {
    expectProblem(
      await t.api(sessionsPath('0190a4f2-0000-7000-8000-000000000000'), { key: reader }),
      404,
      'eventNotFound',
    );
    const other = await t.workspace('Other programme workspace', true);
    expectProblem(
      await t.api(sessionsPath(programmeIds(other.workspaceId).event('summit')), { key: reader }),
      404,
      'eventNotFound',
    );
  });

  it('needs program:read: a key without it gets 403 missingScope naming the scope', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['events:read'] });
    const body = expectProblem(await t.api(sessionsPath(summit), { key }), 403, 'missingScope');
    expect(body.scope).toBe('program:read');
  });
});

describe('GET /events/{eventId}/sessions/{sessionId}', () => {
  const path = () => `${sessionsPath(summit)}/${ids.session('summit', 'panel')}`;

  it('answers the session with an ETag, and 304 with no body when If-None-Match names it', async () => {
    const res = await t.api(path(), { key: reader });
    expect(res.status).toBe(200);
    expect(res.body.sessionId).toBe(ids.session('summit', 'panel'));
    expect(res.body.kind).toBe('panel');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await t.fetch(`${t.server.origin}/api/v1${path()}`, {
      headers: { authorization: `Bearer ${reader}`, 'if-none-match': etag! },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await t.api(path(), { key: reader, headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
  });

  it('moves the ETag when the session changes', async () => {
    const { eventId, roomId } = await eventWithRoom();
    const made = await create(eventId, {
      title: 'Tagged',
      roomId,
      startsLocal: '2027-06-10T09:00',
      endsLocal: '2027-06-10T10:00',
    });
    const url = `${sessionsPath(eventId)}/${made.body.sessionId}`;
    const before = (await t.api(url, { key: reader })).headers.get('etag')!;
    expect((await patch(eventId, made.body.sessionId, { title: 'Retitled' })).status).toBe(200);
    const after = await t.api(url, { key: reader, headers: { 'if-none-match': before } });
    expect(after.status).toBe(200);
    expect(after.body.title).toBe('Retitled');
    expect(after.headers.get('etag')).not.toBe(before);
  });

  it('answers 404 notFound for an unknown session and for a session of another event, 404 eventNotFound for an unknown event', async () => {
    expectProblem(
      await t.api(`${sessionsPath(summit)}/0190a4f2-0000-7000-8000-000000000001`, { key: reader }),
      404,
      'notFound',
    );
    expectProblem(
      await t.api(`${sessionsPath(summit)}/${ids.session('meetup', 'signals')}`, { key: reader }),
      404,
      'notFound',
    );
    expectProblem(
      await t.api(
        `${sessionsPath('0190a4f2-0000-7000-8000-000000000002')}/${ids.session('summit', 'panel')}`,
        { key: reader },
      ),
      404,
      'eventNotFound',
    );
  });
});

describe('POST /events/{eventId}/sessions', () => {
  it('adds a session and answers 201 with it: kind talk by default, speakers in the order sent', async () => {
    const { eventId, roomId } = await eventWithRoom();
    const a = await addSpeaker(t, eventId, 'Speaker A');
    const b = await addSpeaker(t, eventId, 'Speaker B');
    const res = await create(eventId, {
      title: 'A new talk',
      summary: 'About **things**.',
      roomId,
      startsLocal: '2027-06-10T10:00',
      endsLocal: '2027-06-10T10:45',
      capacity: 40,
      language: 'en',
      speakerIds: [b, a],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      eventId,
      title: 'A new talk',
      summary: 'About **things**.',
      kind: 'talk',
      roomId,
      trackId: null,
      startsUtc: '2027-06-10T08:00:00.000Z',
      endsUtc: '2027-06-10T08:45:00.000Z',
      startsLocal: '2027-06-10T10:00',
      endsLocal: '2027-06-10T10:45',
      timeZone: 'Europe/Oslo',
      minutes: 45,
      capacity: 40,
      language: 'en',
      joinProvider: null,
      speakerIds: [b, a],
    });
    const got = await t.api(`${sessionsPath(eventId)}/${res.body.sessionId}`, { key: reader });
    expect(got.body).toEqual(res.body);
  });

  it('replays the first answer for a retry with the same Idempotency-Key, making one session only', async () => {
    const { eventId, roomId } = await eventWithRoom();
    const body = {
      title: 'Once only',
      roomId,
      startsLocal: '2027-06-10T11:00',
      endsLocal: '2027-06-10T12:00',
    };
    const key = `session-${Math.random().toString(36).slice(2)}`;
    const first = await create(eventId, body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const second = await create(eventId, body, { 'idempotency-key': key });
    expect(second.status).toBe(201);
    expect(second.body.sessionId).toBe(first.body.sessionId);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await sessionCount(eventId)).toBe(1);
    // Without the key, the same body is a new request: the room is now taken.
    expectProblem(await create(eventId, body), 409, 'clash');
    expectProblem(
      await create(eventId, { ...body, title: 'Other' }, { 'idempotency-key': key }),
      422,
      'idempotencyKeyReused',
    );
  });

  it('takes a title of 300 characters and refuses 301 with 400 invalidRequest naming title', async () => {
    const { eventId } = await eventWithRoom();
    const times = { startsLocal: '2027-06-10T09:00', endsLocal: '2027-06-10T10:00' };
    expect((await create(eventId, { title: 'x'.repeat(300), ...times })).status).toBe(201);
    const body = expectProblem(
      await create(eventId, { title: 'y'.repeat(301), ...times }),
      400,
      'invalidRequest',
    );
    expect(body.errors.map((e: any) => e.field)).toEqual(['title']);
    expect(await sessionCount(eventId)).toBe(1);
  });

  it('refuses a room, a track or a speaker of another event with 400 invalidRequest naming the field', async () => {
    const { eventId } = await eventWithRoom();
    const times = { startsLocal: '2027-06-10T09:00', endsLocal: '2027-06-10T10:00' };
    const room = expectProblem(
      await create(eventId, { title: 'Wrong room', roomId: ids.room('summit', 'main'), ...times }),
      400,
      'invalidRequest',
    );
    expect(room.errors).toEqual([{ field: 'roomId', message: expect.any(String) }]);
    const track = expectProblem(
      await create(eventId, { title: 'Wrong track', trackId: ids.track('summit', 'design'), ...times }),
      400,
      'invalidRequest',
    );
    expect(track.errors.map((e: any) => e.field)).toEqual(['trackId']);
    const own = await addSpeaker(t, eventId);
    const speaker = expectProblem(
      await create(eventId, {
        title: 'Wrong speaker',
        speakerIds: [own, ids.speaker('summit', 'lars')],
        ...times,
      }),
      400,
      'invalidRequest',
    );
    expect(speaker.errors.map((e: any) => e.field)).toEqual(['speakerIds.1']);
    expect(await sessionCount(eventId)).toBe(0);
  });

  it('refuses missing times, an end not after the start, and more seats than the room has', async () => {
    const { eventId, roomId } = await eventWithRoom();
    const none = expectProblem(await create(eventId, { title: 'No time' }), 400, 'invalidRequest');
    expect(none.errors.map((e: any) => e.field).sort()).toEqual(['endsLocal', 'startsLocal']);
    const backwards = expectProblem(
      await create(eventId, {
        title: 'Backwards',
        startsLocal: '2027-06-10T10:00',
        endsLocal: '2027-06-10T10:00',
      }),
      400,
      'invalidRequest',
    );
    expect(backwards.errors.map((e: any) => e.field)).toEqual(['endsUtc']);
    const seats = expectProblem(
      await create(eventId, {
        title: 'Too many seats',
        roomId,
        capacity: 101,
        startsLocal: '2027-06-10T10:00',
        endsLocal: '2027-06-10T11:00',
      }),
      400,
      'invalidRequest',
    );
    expect(seats.errors.map((e: any) => e.field)).toEqual(['capacity']);
    expectProblem(
      await create(eventId, {
        title: 'Bad kind',
        kind: 'lecture',
        startsLocal: '2027-06-10T10:00',
        endsLocal: '2027-06-10T11:00',
      }),
      400,
      'invalidRequest',
    );
    expectProblem(
      await create(eventId, { title: 42, startsLocal: '2027-06-10T10:00', endsLocal: '2027-06-10T11:00' }),
      400,
      'invalidBody',
    );
  });

  it('uses the UTC pair when both the local and the UTC pair are sent', async () => {
    const { eventId } = await eventWithRoom();
    const res = await create(eventId, {
      title: 'Both pairs',
      startsLocal: '2027-06-10T09:00',
      endsLocal: '2027-06-10T10:00',
      startsUtc: '2027-06-10T14:00:00Z',
      endsUtc: '2027-06-10T17:30:00+02:00',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      startsUtc: '2027-06-10T14:00:00.000Z',
      endsUtc: '2027-06-10T15:30:00.000Z',
      startsLocal: '2027-06-10T16:00',
      endsLocal: '2027-06-10T17:30',
      minutes: 90,
    });
  });

  describe('one session per room at a time', () => {
    it('refuses an overlap with 409 clash naming the sessions in the way, and places nothing', async () => {
      const { eventId, roomId } = await eventWithRoom();
      const a = await create(eventId, {
        title: 'Morning talk',
        roomId,
        startsLocal: '2027-06-10T09:00',
        endsLocal: '2027-06-10T10:00',
      });
      const b = await create(eventId, {
        title: 'Late morning',
        roomId,
        startsLocal: '2027-06-10T10:00',
        endsLocal: '2027-06-10T11:00',
      });
      expect([a.status, b.status]).toEqual([201, 201]);
      const res = await create(eventId, {
        title: 'Straddles both',
        roomId,
        startsLocal: '2027-06-10T09:30',
        endsLocal: '2027-06-10T10:30',
      });
      const body = expectProblem(res, 409, 'clash');
      expect(body.sessions).toEqual([
        {
          sessionId: a.body.sessionId,
          title: 'Morning talk',
          startsUtc: a.body.startsUtc,
          endsUtc: a.body.endsUtc,
        },
        {
          sessionId: b.body.sessionId,
          title: 'Late morning',
          startsUtc: b.body.startsUtc,
          endsUtc: b.body.endsUtc,
        },
      ]);
      expect(await sessionCount(eventId)).toBe(2);
      // Another room, or no room, is free at that time.
      const other = await addRoom(t, eventId, { name: 'Hall B' });
      expect(
        (
          await create(eventId, {
            title: 'Next door',
            roomId: other,
            startsLocal: '2027-06-10T09:30',
            endsLocal: '2027-06-10T10:30',
          })
        ).status,
      ).toBe(201);
      expect(
        (
          await create(eventId, {
            title: 'In the foyer',
            startsLocal: '2027-06-10T09:30',
            endsLocal: '2027-06-10T10:30',
          })
        ).status,
      ).toBe(201);
    });

    it('places exactly one of several sessions sent at the same moment for the same room and time', async () => {
      const { eventId, roomId } = await eventWithRoom();
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          create(eventId, {
            title: `Race ${i}`,
            roomId,
            startsLocal: '2027-06-10T15:00',
            endsLocal: '2027-06-10T16:00',
          }),
        ),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      expect(await sessionCount(eventId)).toBe(1);
    });

    it('places it anyway when allowClash is true', async () => {
      const { eventId, roomId } = await eventWithRoom();
      const times = { roomId, startsLocal: '2027-06-10T13:00', endsLocal: '2027-06-10T14:00' };
      expect((await create(eventId, { title: 'Taken', ...times })).status).toBe(201);
      expectProblem(await create(eventId, { title: 'Overlap', ...times, allowClash: false }), 409, 'clash');
      const res = await create(eventId, { title: 'Overlap on purpose', ...times, allowClash: true });
      expect(res.status).toBe(201);
      expect(res.body.roomId).toBe(roomId);
      expect(await sessionCount(eventId)).toBe(2);
    });

    it('compares instants across time zones: venue time clashes with UTC at the same moment; touching does not clash', async () => {
      // Oslo in June is UTC+2: 12:30 venue time is 10:30 UTC.
      const { eventId, roomId } = await eventWithRoom('Europe/Oslo');
      const utc = await create(eventId, {
        title: 'Given in UTC',
        roomId,
        startsUtc: '2027-06-10T10:00:00Z',
        endsUtc: '2027-06-10T11:00:00Z',
      });
      expect(utc.status).toBe(201);
      const overlap = await create(eventId, {
        title: 'Given in venue time',
        roomId,
        startsLocal: '2027-06-10T12:30',
        endsLocal: '2027-06-10T13:30',
      });
      expect(expectProblem(overlap, 409, 'clash').sessions.map((s: any) => s.sessionId)).toEqual([
        utc.body.sessionId,
      ]);
      // 11:00-12:00 venue time ends at 10:00 UTC, when the UTC session starts.
      const before = await create(eventId, {
        title: 'Ends as it starts',
        roomId,
        startsLocal: '2027-06-10T11:00',
        endsLocal: '2027-06-10T12:00',
      });
      expect(before.status, JSON.stringify(before.body)).toBe(201);
      // 13:00-14:00 venue time starts at 11:00 UTC, when the UTC session ends.
      const after = await create(eventId, {
        title: 'Starts as it ends',
        roomId,
        startsLocal: '2027-06-10T13:00',
        endsLocal: '2027-06-10T14:00',
      });
      expect(after.status, JSON.stringify(after.body)).toBe(201);
      // And the other way round: a UTC session over a venue-time one.
      const utcOverLocal = await create(eventId, {
        title: 'UTC over venue time',
        roomId,
        startsUtc: '2027-06-10T11:59:00Z',
        endsUtc: '2027-06-10T12:30:00Z',
      });
      expect(expectProblem(utcOverLocal, 409, 'clash').sessions.map((s: any) => s.sessionId)).toEqual([
        after.body.sessionId,
      ]);
    });

    it('compares instants in a zone with a half-hour offset too', async () => {
      // Kolkata is UTC+05:30: 10:00-11:00 venue time is 04:30-05:30 UTC.
      const { eventId, roomId } = await eventWithRoom('Asia/Kolkata');
      const local = await create(eventId, {
        title: 'Venue time',
        roomId,
        startsLocal: '2027-06-10T10:00',
        endsLocal: '2027-06-10T11:00',
      });
      expect(local.body.startsUtc).toBe('2027-06-10T04:30:00.000Z');
      const clash = await create(eventId, {
        title: 'UTC',
        roomId,
        startsUtc: '2027-06-10T05:00:00Z',
        endsUtc: '2027-06-10T06:00:00Z',
      });
      expectProblem(clash, 409, 'clash');
      const touching = await create(eventId, {
        title: 'UTC after',
        roomId,
        startsUtc: '2027-06-10T05:30:00Z',
        endsUtc: '2027-06-10T06:00:00Z',
      });
      expect(touching.status).toBe(201);
      expect(touching.body.startsLocal).toBe('2027-06-10T11:00');
    });
  });

  it('shows a new session of a published event at once in its list and by id', async () => {
    const event = await t.api(`/events/${summit}`, { key: everything });
    expect(event.body.status).toBe('published');
    const res = await create(summit, {
      title: 'Late addition',
      roomId: ids.room('summit', 'studio'),
      startsUtc: event.body.endsUtc,
      endsUtc: new Date(Date.parse(event.body.endsUtc) + 30 * 60_000).toISOString(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { items } = await walkPages(t, reader, `${sessionsPath(summit)}?limit=10`);
    expect(items.at(-1)).toEqual(res.body);
    expect((await t.api(`${sessionsPath(summit)}/${res.body.sessionId}`, { key: reader })).body).toEqual(
      res.body,
    );
  });

  it('needs program:write: program:read alone gets 403 missingScope', async () => {
    const body = expectProblem(
      await t.api(sessionsPath(summit), {
        key: reader,
        method: 'POST',
        body: { title: 'Nope', startsUtc: '2027-06-10T10:00:00Z', endsUtc: '2027-06-10T11:00:00Z' },
      }),
      403,
      'missingScope',
    );
    expect(body.scope).toBe('program:write');
  });

  it('is refused in the demonstration workspace with 403 demoWorkspace, like PATCH', async () => {
    const demo = programmeIds(demoWorkspaceId);
    const before = await t.api(`${sessionsPath(demo.event('summit'))}/${demo.session('summit', 'panel')}`, {
      key: t.server.demoKey,
    });
    expect(before.status).toBe(200);
    expectProblem(
      await t.api(sessionsPath(demo.event('summit')), {
        key: t.server.demoKey,
        method: 'POST',
        body: { title: 'Demo', startsUtc: '2027-06-10T10:00:00Z', endsUtc: '2027-06-10T11:00:00Z' },
      }),
      403,
      'demoWorkspace',
    );
    expectProblem(
      await t.api(`${sessionsPath(demo.event('summit'))}/${demo.session('summit', 'panel')}`, {
        key: t.server.demoKey,
        method: 'PATCH',
        body: { title: 'Demo' },
      }),
      403,
      'demoWorkspace',
    );
    const after = await t.api(`${sessionsPath(demo.event('summit'))}/${demo.session('summit', 'panel')}`, {
      key: t.server.demoKey,
    });
    expect(after.body).toEqual(before.body);
  });
});

describe('PATCH /events/{eventId}/sessions/{sessionId}', () => {
  it('changes only the fields sent (JSON merge patch); null clears the track and the room', async () => {
    const { eventId, roomId } = await eventWithRoom();
    const track = (
      await t.server.services.db
        .selectFrom('tracks')
        .select('id')
        .where('event_id', '=', summit)
        .executeTakeFirstOrThrow()
    ).id;
    expectProblem(
      await patch(
        eventId,
        (
          await create(eventId, {
            title: 'x',
            startsLocal: '2027-06-10T08:00',
            endsLocal: '2027-06-10T08:30',
          })
        ).body.sessionId,
        { trackId: track },
      ),
      400,
      'invalidRequest',
    );
    const made = await create(eventId, {
      title: 'Patch me',
      kind: 'workshop',
      roomId,
      summary: 'Keep me',
      startsLocal: '2027-06-10T09:00',
      endsLocal: '2027-06-10T10:00',
    });
    const res = await patch(eventId, made.body.sessionId, { title: 'Patched', capacity: 12 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      ...made.body,
      title: 'Patched',
      capacity: 12,
      updatedUtc: expect.any(String),
    });
    const cleared = await patch(eventId, made.body.sessionId, { roomId: null, summary: null });
    expect(cleared.body).toMatchObject({ roomId: null, summary: null, title: 'Patched', kind: 'workshop' });
    expect(cleared.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('moves a session by venue time or UTC, the UTC value winning, and refuses an end before the start', async () => {
    const { eventId } = await eventWithRoom();
    const made = await create(eventId, {
      title: 'Mover',
      startsLocal: '2027-06-10T09:00',
      endsLocal: '2027-06-10T10:00',
    });
    const moved = await patch(eventId, made.body.sessionId, {
      startsLocal: '2027-06-10T15:00',
      startsUtc: '2027-06-10T07:30:00Z',
    });
    expect(moved.body).toMatchObject({
      startsUtc: '2027-06-10T07:30:00.000Z',
      startsLocal: '2027-06-10T09:30',
      minutes: 30,
    });
    const bad = expectProblem(
      await patch(eventId, made.body.sessionId, { startsLocal: '2027-06-10T11:00' }),
      400,
      'invalidRequest',
    );
    expect(bad.errors[0].message).toMatch(/after the start/);
  });

  it('refuses moving into a taken room or time with 409 clash, unless allowClash is true', async () => {
    const { eventId, roomId } = await eventWithRoom();
    const other = await addRoom(t, eventId, { name: 'Hall B' });
    const a = await create(eventId, {
      title: 'Holder',
      roomId,
      startsLocal: '2027-06-10T09:00',
      endsLocal: '2027-06-10T10:00',
    });
    const b = await create(eventId, {
      title: 'Elsewhere',
      roomId: other,
      startsLocal: '2027-06-10T09:30',
      endsLocal: '2027-06-10T10:30',
    });
    const c = await create(eventId, {
      title: 'Later',
      roomId,
      startsLocal: '2027-06-10T10:00',
      endsLocal: '2027-06-10T11:00',
    });
    const intoRoom = expectProblem(await patch(eventId, b.body.sessionId, { roomId }), 409, 'clash');
    expect(intoRoom.sessions.map((s: any) => s.sessionId)).toEqual([a.body.sessionId, c.body.sessionId]);
    expect((await t.api(`${sessionsPath(eventId)}/${b.body.sessionId}`, { key: reader })).body.roomId).toBe(
      other,
    );
    const intoTime = expectProblem(
      await patch(eventId, c.body.sessionId, { startsUtc: '2027-06-10T07:45:00Z' }),
      409,
      'clash',
    );
    expect(intoTime.sessions).toEqual([
      { sessionId: a.body.sessionId, title: 'Holder', startsUtc: a.body.startsUtc, endsUtc: a.body.endsUtc },
    ]);
    // Growing within its own slot never clashes with itself.
    expect((await patch(eventId, a.body.sessionId, { startsLocal: '2027-06-10T08:30' })).status).toBe(200);
    const forced = await patch(eventId, b.body.sessionId, { roomId, allowClash: true });
    expect(forced.status).toBe(200);
    expect(forced.body.roomId).toBe(roomId);
    // A session placed over another keeps its place when only its title changes.
    expect((await patch(eventId, b.body.sessionId, { title: 'Renamed' })).status).toBe(200);
  });

  it('answers 412 preconditionFailed for a stale If-Match, and 404 notFound for an unknown session', async () => {
    const { eventId } = await eventWithRoom();
    const made = await create(eventId, {
      title: 'Guarded',
      startsLocal: '2027-06-10T09:00',
      endsLocal: '2027-06-10T10:00',
    });
    const url = `${sessionsPath(eventId)}/${made.body.sessionId}`;
    const stale = (await t.api(url, { key: reader })).headers.get('etag')!;
    expect(
      (await patch(eventId, made.body.sessionId, { title: 'First change' }, { 'if-match': stale })).status,
    ).toBe(200);
    expectProblem(
      await patch(eventId, made.body.sessionId, { title: 'Lost update' }, { 'if-match': stale }),
      412,
      'preconditionFailed',
    );
    expect((await t.api(url, { key: reader })).body.title).toBe('First change');
    expectProblem(
      await patch(eventId, '0190a4f2-0000-7000-8000-000000000003', { title: 'Nobody' }),
      404,
      'notFound',
    );
  });
});

describe('the programme module switched off', () => {
  it('answers 409 moduleOff naming program on every programme call, and the data returns when switched on', async () => {
    const { eventId, roomId } = await eventWithRoom();
    const made = await create(eventId, {
      title: 'Kept',
      roomId,
      startsLocal: '2027-06-10T09:00',
      endsLocal: '2027-06-10T10:00',
    });
    const off = await t.api(`/events/${eventId}`, {
      key: everything,
      method: 'PATCH',
      body: { modules: { program: false } },
    });
    expect(off.status).toBe(200);
    const calls = [
      t.api(sessionsPath(eventId), { key: writer }),
      t.api(`${sessionsPath(eventId)}/${made.body.sessionId}`, { key: writer }),
      create(eventId, { title: 'New', startsLocal: '2027-06-10T11:00', endsLocal: '2027-06-10T12:00' }),
      patch(eventId, made.body.sessionId, { title: 'Changed' }),
      t.api(`/events/${eventId}/rooms`, { key: writer }),
      t.api(`/events/${eventId}/tracks`, { key: writer }),
      t.api(`/events/${eventId}/speakers`, { key: writer }),
    ];
    for (const res of await Promise.all(calls))
      expect(expectProblem(res, 409, 'moduleOff').module).toBe('program');
    await t.api(`/events/${eventId}`, {
      key: everything,
      method: 'PATCH',
      body: { modules: { program: true } },
    });
    const back = await t.api(sessionsPath(eventId), { key: reader });
    expect(back.body.data).toEqual([made.body]);
  });
});
