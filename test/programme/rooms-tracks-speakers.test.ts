// Rooms, tracks and speakers (issue 4, item 4; shapes designed in the spec's style), speakers'
// email addresses under the personal-data rule, and online sessions: the streaming service is
// named, the join link never appears in any answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../support/fixtures';
import { walkPages } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { programmeIds } from './programme-support';

let t: TestServer;
let workspaceId: string;
let reader: string;
let readerWithPeople: string;
let writer: string;
let ids: ReturnType<typeof programmeIds>;
let summit: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Programme lists workspace', true));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['program:read'] }));
  ({ key: readerWithPeople } = await t.key({ workspaceId, scopes: ['program:read', 'people:read'] }));
  ({ key: writer } = await t.key({ workspaceId, scopes: ['program:write'] }));
  ids = programmeIds(workspaceId);
  summit = ids.event('summit');
});
afterAll(async () => t.close());

describe('GET /events/{eventId}/rooms', () => {
  it('lists the rooms with roomId, eventId, name, capacity, location, sortOrder and updatedUtc', async () => {
    const res = await t.api(`/events/${summit}/rooms`, { key: reader });
    expect(res.status).toBe(200);
    expect(res.body.hasMore).toBe(false);
    const names = res.body.data.map((r: any) => r.name);
    expect(names).toContain('Main hall');
    expect(names).toContain('Workshop room');
    const main = res.body.data.find((r: any) => r.name === 'Main hall');
    expect(main).toEqual({
      roomId: ids.room('summit', 'main'),
      eventId: summit,
      name: 'Main hall',
      capacity: 600,
      location: 'Ground floor',
      sortOrder: 1,
      updatedUtc: expect.stringMatching(/Z$/),
    });
  });

  it('pages with cursor and limit, and has no rooms at an online event', async () => {
    const { items, pages } = await walkPages(t, reader, `/events/${summit}/rooms?limit=1`);
    expect(pages).toBe(items.length);
    expect(new Set(items.map((r) => r.roomId)).size).toBe(items.length);
    const remote = await t.api(`/events/${ids.event('remote')}/rooms`, { key: reader });
    expect(remote.body.data).toEqual([]);
  });
});

describe('GET /events/{eventId}/tracks', () => {
  it('lists the three summit tracks with colour and description', async () => {
    const res = await t.api(`/events/${summit}/tracks`, { key: reader });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(3);
    for (const track of res.body.data) {
      expect(Object.keys(track).sort()).toEqual(
        ['trackId', 'eventId', 'name', 'colour', 'description', 'sortOrder', 'updatedUtc'].sort(),
      );
      expect(track.colour).toMatch(/^#[0-9a-f]{6}$/);
      expect(track.eventId).toBe(summit);
    }
    expect(res.body.data.map((t: any) => t.sortOrder)).toEqual([1, 2, 3]);
  });

  it('needs program:read', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['tickets:read'] });
    expect(expectProblem(await t.api(`/events/${summit}/tracks`, { key }), 403, 'missingScope').scope).toBe(
      'program:read',
    );
  });
});

describe('GET /events/{eventId}/speakers', () => {
  it('lists the speakers with the sessions they speak at, earliest first', async () => {
    const res = await t.api(`/events/${summit}/speakers`, { key: readerWithPeople });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThanOrEqual(8);
    const sessions = (await walkPages(t, reader, `/events/${summit}/sessions`)).items;
    for (const speaker of res.body.data) {
      const theirs = sessions
        .filter((s) => s.speakerIds.includes(speaker.speakerId))
        .sort((a, b) => a.startsUtc.localeCompare(b.startsUtc) || a.sessionId.localeCompare(b.sessionId))
        .map((s) => s.sessionId);
      expect(speaker.sessionIds, speaker.name).toEqual(theirs);
    }
    const kenji = res.body.data.find((s: any) => s.speakerId === ids.speaker('summit', 'kenji'));
    expect(kenji).toMatchObject({
      name: 'Kenji Watanabe',
      company: 'Sakura Systems',
      jobTitle: 'Head of Product',
      email: 'kenji.watanabe@example.com',
      photoUrl: expect.stringMatching(/^https:\/\//),
      erased: false,
      personalData: 'included',
    });
    expect(kenji.sessionIds).toContain(ids.session('summit', 'panel'));
  });

  it('withholds the email address without people:read, keeping what the programme shows', async () => {
    const res = await t.api(`/events/${summit}/speakers`, { key: reader });
    expect(res.status).toBe(200);
    for (const speaker of res.body.data) {
      expect(speaker.email).toBeNull();
      expect(speaker.personalData).toBe('withheld');
      expect(speaker.erased).toBe(false);
      expect(typeof speaker.name).toBe('string');
    }
    expect(JSON.stringify(res.body)).not.toContain('@example.com');
  });

  it('shows nothing personal of a speaker who erased their data, whatever the key may read', async () => {
    const id = ids.speaker('summit', 'chloe');
    await t.server.services.db
      .updateTable('speakers')
      .set({ erased: 1, email: null, bio: null })
      .where('id', '=', id)
      .execute();
    const res = await t.api(`/events/${summit}/speakers`, { key: readerWithPeople });
    const chloe = res.body.data.find((s: any) => s.speakerId === id);
    expect(chloe).toMatchObject({
      name: null,
      company: null,
      jobTitle: null,
      bio: null,
      photoUrl: null,
      email: null,
      erased: true,
      personalData: 'erased',
    });
    expect(chloe.sessionIds.length).toBeGreaterThan(0);
  });

  it('marks a speaker changed when a session names them, so updatedSince finds the new sessionIds', async () => {
    const before = await t.api(`/events/${summit}/speakers`, { key: reader });
    const priya = before.body.data.find((s: any) => s.speakerId === ids.speaker('summit', 'priya'));
    const made = await t.api(`/events/${summit}/sessions`, {
      key: writer,
      method: 'POST',
      body: {
        title: 'Office hours',
        speakerIds: [priya.speakerId],
        startsUtc: '2030-01-01T10:00:00Z',
        endsUtc: '2030-01-01T11:00:00Z',
      },
    });
    expect(made.status).toBe(201);
    const since = await t.api(
      `/events/${summit}/speakers?updatedSince=${encodeURIComponent(made.body.updatedUtc)}`,
      { key: reader },
    );
    expect(since.body.data.map((s: any) => s.speakerId)).toEqual([priya.speakerId]);
    expect(since.body.data[0].sessionIds).toEqual([...priya.sessionIds, made.body.sessionId]);
  });
});

describe('online sessions', () => {
  it('name the streaming service in joinProvider but never the join link, in lists, single reads and MCP', async () => {
    const remote = ids.event('remote');
    const stored = await t.server.services.db
      .selectFrom('sessions')
      .select(['id', 'join_url', 'join_provider'])
      .where('event_id', '=', remote)
      .execute();
    expect(stored.length).toBeGreaterThanOrEqual(2);
    expect(stored.every((s) => s.join_url !== null)).toBe(true);
    const list = await t.api(`/events/${remote}/sessions`, { key: readerWithPeople });
    expect(list.body.data.map((s: any) => s.joinProvider).sort()).toEqual(
      stored.map((s) => s.join_provider).sort(),
    );
    expect(list.body.data.every((s: any) => s.roomId === null)).toBe(true);
    const one = await t.api(`/events/${remote}/sessions/${stored[0]!.id}`, { key: readerWithPeople });
    const client = await t.mcp(readerWithPeople, {}, '?toolsets=programme');
    const tool = await client.callTool({ name: 'list_sessions', arguments: { eventId: remote } });
    await client.close();
    for (const answer of [JSON.stringify(list.body), JSON.stringify(one.body), JSON.stringify(tool)]) {
      for (const s of stored) expect(answer).not.toContain(s.join_url!);
      expect(answer).not.toMatch(/join_?url|joinLink/i);
      expect(answer).toContain('joinProvider');
    }
  });
});
