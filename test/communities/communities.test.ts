// Communities (spec Community, CommunityMember): the list with member and meetup counts computed
// from the rows behind them, the detail with its ETag, members oldest change first with the status
// filter, updatedSince and the personal-data rule, communities:read, isolation between workspaces,
// the MCP tools, and erasure reaching a person's memberships.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { sampleId } from '../../db/sample/ids';
import { expectProblem } from '../support/fixtures';
import { callTool, walkPages } from '../support/sales';
import { anotherWorkspace, MutableClock, startTestServer, type TestServer } from '../support/server';

const clock = new MutableClock();
let t: TestServer;
let workspaceId: string;
let reader: string;
let peopleReader: string;
let other: { workspaceId: string; key: string };
const community = (key: string) => sampleId(workspaceId, `community/${key}`);

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Communities workspace', true));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['communities:read'], expires: 'never' }));
  ({ key: peopleReader } = await t.key({
    workspaceId,
    scopes: ['communities:read', 'people:read'],
    expires: 'never',
  }));
  other = await anotherWorkspace(t);
});
afterAll(async () => t.close());

const db = () => t.server.services.db;

describe('GET /communities', () => {
  it("lists the workspace's communities, drafts too, oldest change first, with the spec's fields", async () => {
    const { items } = await walkPages(t, reader, '/communities');
    const stored = await db()
      .selectFrom('communities')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .orderBy('change_seq')
      .execute();
    expect(items.map((c) => c.communityId)).toEqual(stored.map((c) => c.id));
    expect(items.map((c) => c.status).sort()).toEqual(['draft', 'published', 'published']);
    for (const item of items)
      expect(Object.keys(item).sort()).toEqual(
        [
          'communityId',
          'slug',
          'name',
          'status',
          'city',
          'online',
          'timeZone',
          'members',
          'pendingMembers',
          'upcomingMeetups',
          'nextMeetup',
          'url',
        ].sort(),
      );
    const tokyo = items.find((c) => c.communityId === community('tokyo-frontend'))!;
    expect(tokyo.url).toBe(`${t.server.origin}/c/${tokyo.slug}`);
    expect(tokyo).toMatchObject({
      name: 'Tokyo Frontend',
      city: 'Tokyo',
      online: false,
      timeZone: 'Asia/Tokyo',
    });
  });

  it('counts members and meetups from the rows behind them', async () => {
    const { items } = await walkPages(t, reader, '/communities');
    const now = clock.now().toISOString();
    for (const item of items) {
      const members = await db()
        .selectFrom('community_members')
        .select('status')
        .where('community_id', '=', item.communityId)
        .execute();
      expect(item.members).toBe(members.filter((m) => m.status === 'active').length);
      expect(item.pendingMembers).toBe(members.filter((m) => m.status === 'pending').length);
      const meetups = await db()
        .selectFrom('events')
        .select(['name', 'starts_utc'])
        .where('community_id', '=', item.communityId)
        .where('status', '=', 'published')
        .where('starts_utc', '>', now)
        .orderBy('starts_utc')
        .execute();
      expect(item.upcomingMeetups).toBe(meetups.length);
      expect(item.nextMeetup).toEqual(
        meetups[0] ? { name: meetups[0].name, startsUtc: meetups[0].starts_utc } : null,
      );
    }
    const tokyo = items.find((c) => c.communityId === community('tokyo-frontend'))!;
    expect(tokyo).toMatchObject({ members: 5, pendingMembers: 2, upcomingMeetups: 1 });
    expect(tokyo.nextMeetup.name).toBe('Tokyo Frontend Meetup #42');
  });

  it('pages with a cursor and keeps to one workspace', async () => {
    const { items, pages } = await walkPages(t, reader, '/communities?limit=1');
    expect(pages).toBe(3);
    expect(new Set(items.map((c) => c.communityId)).size).toBe(3);
    const theirs = await walkPages(t, other.key, '/communities');
    expect(theirs.items.some((c) => items.some((mine) => mine.communityId === c.communityId))).toBe(false);
  });

  it('sees a change after updatedSince', async () => {
    const before = (await walkPages(t, reader, '/communities')).items;
    const since = clock.now().toISOString();
    clock.advance(1000);
    await db()
      .updateTable('communities')
      .set({ summary: 'Changed.', updated_utc: clock.now().toISOString(), change_seq: 1_000_000_000 })
      .where('id', '=', community('nordic-product'))
      .execute();
    const res = await t.api(`/communities?updatedSince=${encodeURIComponent(since)}`, { key: reader });
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: any) => c.communityId)).toEqual([community('nordic-product')]);
    expect(before.length).toBe(3);
  });

  it('needs communities:read', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['events:read', 'people:read'] });
    expectProblem(await t.api('/communities', { key }), 403, 'missingScope');
    expect((await t.api('/communities', { key })).body.scope).toBe('communities:read');
  });
});

describe('GET /communities/{communityId}', () => {
  it('answers the detail with an ETag, and 304 to If-None-Match', async () => {
    const res = await t.api(`/communities/${community('tokyo-frontend')}`, { key: reader });
    expect(res.status).toBe(200);
    const row = await db()
      .selectFrom('communities')
      .selectAll()
      .where('id', '=', community('tokyo-frontend'))
      .executeTakeFirstOrThrow();
    expect(res.body).toEqual({
      communityId: row.id,
      slug: row.slug,
      name: 'Tokyo Frontend',
      status: 'published',
      city: 'Tokyo',
      online: false,
      timeZone: 'Asia/Tokyo',
      url: `${t.server.origin}/c/${row.slug}`,
      summary: row.summary,
      description: row.description,
      languages: ['ja', 'en'],
      joinPolicy: 'approval',
      createdUtc: row.created_utc,
      updatedUtc: row.updated_utc,
    });
    const etag = res.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const again = await t.api(`/communities/${community('tokyo-frontend')}`, {
      key: reader,
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
  });

  it("answers 404 notFound for an unknown id and for another workspace's community", async () => {
    expectProblem(await t.api(`/communities/${sampleId('nowhere', 'x')}`, { key: reader }), 404, 'notFound');
    const theirs = sampleId(other.workspaceId, 'community/tokyo-frontend');
    expectProblem(await t.api(`/communities/${theirs}`, { key: reader }), 404, 'notFound');
    expectProblem(await t.api(`/communities/${theirs}/members`, { key: reader }), 404, 'notFound');
  });
});

describe('GET /communities/{communityId}/members', () => {
  const path = (query = '') => `/communities/${community('tokyo-frontend')}/members${query}`;

  it('lists members oldest change first, with names and email for people:read', async () => {
    const { items } = await walkPages(t, peopleReader, path('?limit=3'));
    const stored = await db()
      .selectFrom('community_members')
      .selectAll()
      .where('community_id', '=', community('tokyo-frontend'))
      .orderBy('change_seq')
      .execute();
    expect(items.map((m) => m.memberId)).toEqual(stored.map((m) => m.id));
    for (const [i, m] of items.entries()) {
      const row = stored[i]!;
      expect(m).toEqual({
        memberId: row.id,
        communityId: community('tokyo-frontend'),
        name: row.name,
        email: row.email,
        language: row.language,
        status: row.status,
        announcements: row.announcements === 1,
        reminders: row.reminders === 1,
        joinedUtc: row.joined_utc,
        approvedUtc: row.approved_utc,
        updatedUtc: row.updated_utc,
        erased: row.erased === 1,
        personalData: row.erased === 1 ? 'erased' : 'included',
      });
    }
    expect(items.some((m) => m.name !== null && m.email?.endsWith('@example.com'))).toBe(true);
  });

  it('withholds names and email without people:read, and shows an erased member as erased', async () => {
    const { items } = await walkPages(t, reader, path());
    for (const m of items) {
      expect(m.name).toBeNull();
      expect(m.email).toBeNull();
      expect(m.personalData).toBe(m.erased ? 'erased' : 'withheld');
    }
    const withPeople = (await walkPages(t, peopleReader, path())).items;
    const erased = withPeople.filter((m) => m.erased);
    expect(erased).toHaveLength(1);
    expect(erased[0]).toMatchObject({ name: null, email: null, personalData: 'erased' });
  });

  it('filters by status', async () => {
    for (const status of ['active', 'pending', 'left'] as const) {
      const { items } = await walkPages(t, reader, path(`?status=${status}`));
      const stored = await db()
        .selectFrom('community_members')
        .select('id')
        .where('community_id', '=', community('tokyo-frontend'))
        .where('status', '=', status)
        .execute();
      expect(items.map((m) => m.memberId).sort()).toEqual(stored.map((m) => m.id).sort());
      expect(items.length).toBeGreaterThan(0);
    }
    expectProblem(await t.api(path('?status=gone'), { key: reader }), 400, 'invalidRequest');
  });

  it('answers only what changed after updatedSince', async () => {
    const since = clock.now().toISOString();
    clock.advance(1000);
    const id = sampleId(workspaceId, 'member/tokyo-frontend/mei');
    await db()
      .updateTable('community_members')
      .set({ status: 'active', updated_utc: clock.now().toISOString(), change_seq: 1_000_000_001 })
      .where('id', '=', id)
      .execute();
    const res = await t.api(path(`?updatedSince=${encodeURIComponent(since)}`), { key: reader });
    expect(res.status).toBe(200);
    expect(res.body.data.map((m: any) => m.memberId)).toEqual([id]);
  });
});

describe('through MCP', () => {
  it('lists communities, gets one and lists its members, with the same answers as REST', async () => {
    const client = await t.mcp(peopleReader, {}, '?toolsets=communities');
    try {
      const listed = await callTool(client, 'list_communities', {});
      expect(listed.isError).toBe(false);
      const rest = await t.api('/communities', { key: peopleReader });
      expect(listed.data.data).toEqual(rest.body.data);
      const one = await callTool(client, 'get_community', { communityId: community('nordic-product') });
      expect(one.data.name).toBe('Nordic Product Circle');
      const members = await callTool(client, 'list_community_members', {
        communityId: community('nordic-product'),
        status: 'active',
      });
      expect(members.data.data.map((m: any) => m.name).sort()).toEqual(['Ingrid Solberg', 'Lars Nilsson']);
      const missing = await callTool(client, 'get_community', { communityId: sampleId('x', 'y') });
      expect(missing.isError).toBe(true);
      expect(missing.data.code).toBe('notFound');
      const tools = (await client.listTools()).tools.filter((x) => x.name.includes('communit'));
      expect(tools.length).toBeGreaterThan(0);
      for (const x of tools) expect(x.annotations?.readOnlyHint).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('erasure', () => {
  it("reaches a person's memberships in every community, in the database", async () => {
    const email = 'aiko.nakamura@example.com';
    const before = await db()
      .selectFrom('community_members')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('email', '=', email)
      .execute();
    expect(before).toHaveLength(2);
    const counts = await erasePerson(await operatorContext(t.server.services, workspaceId), { email });
    expect(counts.communityMembers).toBe(2);
    const rows = await db()
      .selectFrom('community_members')
      .selectAll()
      .where(
        'id',
        'in',
        before.map((r) => r.id),
      )
      .execute();
    for (const row of rows) expect(row).toMatchObject({ name: null, email: null, erased: 1 });
    const shown = await t.api(`/communities/${community('tokyo-frontend')}/members`, { key: peopleReader });
    const member = shown.body.data.find(
      (m: any) => m.memberId === sampleId(workspaceId, 'member/tokyo-frontend/aiko'),
    );
    expect(member).toMatchObject({ name: null, email: null, erased: true, personalData: 'erased' });
    // Another workspace's member with the same address is not touched.
    const theirs = await db()
      .selectFrom('community_members')
      .select('email')
      .where('workspace_id', '=', other.workspaceId)
      .where('email', '=', email)
      .execute();
    expect(theirs).toHaveLength(2);
  });
});

describe('/c/{slug}', () => {
  const get = async (url: string) => {
    const res = await t.fetch(url);
    return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
  };

  it("is where a published community's url leads: what it is, where, how to join, its meetups", async () => {
    const tokyo = (await t.api(`/communities/${community('tokyo-frontend')}`, { key: reader })).body;
    const page = await get(tokyo.url);
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/^text\/html/);
    expect(page.text).toContain('<h1>Tokyo Frontend</h1>');
    expect(page.text).toContain('the organisers approve new members');
    expect(page.text).toContain('Tokyo Frontend Meetup #42');
    const meetup = (await t.api(`/events/${sampleId(workspaceId, 'event/meetup')}`, { key: other.key }))
      .status;
    expect(meetup).toBe(404);
    // Member names are never on the page.
    expect(page.text).not.toContain('Kenji');
  });

  it('answers 404 for a draft community and an unknown slug', async () => {
    const draft = (await t.api(`/communities/${community('berlin-data')}`, { key: reader })).body;
    expect(draft.status).toBe('draft');
    expect((await get(draft.url)).status).toBe(404);
    const unknown = await get(`${t.server.origin}/c/nobody-has-this`);
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('No such community');
  });
});
