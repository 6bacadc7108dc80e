// Communities run live (issue 25, item 6), over HTTPS: a community created as a draft, changed with
// If-Match, published and unpublished (its page /c/{slug} follows); people join (active at once, or
// pending where the organiser approves), are approved or declined, and leave, with member.joined and
// member.left in the outbox exactly when someone becomes or stops being a member; one membership per
// email address; events linked to a community and unlinked; scopes, the demonstration workspace,
// idempotent retries, strict bodies and the personal-data rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleId } from '../../db/sample/ids';
import { eventBody, expectProblem } from '../support/fixtures';
import { outbox, walkPages } from '../support/sales';
import { MutableClock, startTestServer, type TestServer } from '../support/server';

const clock = new MutableClock();
let t: TestServer;
let workspaceId: string;
/** communities:write only: sees members without their names. */
let writer: string;
/** communities:write and people:read. */
let organiser: string;
let reader: string;
let slugCount = 0;

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Community writes', true));
  ({ key: writer } = await t.key({ workspaceId, scopes: ['communities:write'], expires: 'never' }));
  ({ key: organiser } = await t.key({
    workspaceId,
    scopes: ['communities:write', 'people:read', 'events:write'],
    expires: 'never',
  }));
  ({ key: reader } = await t.key({
    workspaceId,
    scopes: ['communities:read', 'people:read'],
    expires: 'never',
  }));
});
afterAll(async () => t.close());

const slug = () => `live-community-${++slugCount}-${Math.random().toString(36).slice(2, 7)}`;

async function create(body: Record<string, unknown> = {}, key = organiser) {
  return t.api('/communities', {
    key,
    method: 'POST',
    body: { slug: slug(), name: 'Oslo Rust', timeZone: 'Europe/Oslo', city: 'Oslo', ...body },
  });
}

async function made(body: Record<string, unknown> = {}): Promise<any> {
  const res = await create(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const join = (communityId: string, body: Record<string, unknown>, key = organiser, headers = {}) =>
  t.api(`/communities/${communityId}/members`, { key, method: 'POST', body, headers });

const act = (communityId: string, memberId: string, verb: 'approve' | 'decline' | 'leave', key = organiser) =>
  t.api(`/communities/${communityId}/members/${memberId}/${verb}`, { key, method: 'POST' });

async function messagesAbout(memberId: string) {
  return (await outbox(t, workspaceId)).filter((m) => m.payload.data.member?.memberId === memberId);
}

const page = async (url: string) => {
  const res = await t.fetch(url);
  return { status: res.status, text: await res.text() };
};

describe('POST /communities', () => {
  it('creates a draft community with the spec fields, an ETag, and the defaults', async () => {
    const s = slug();
    const res = await t.api('/communities', {
      key: organiser,
      method: 'POST',
      body: {
        slug: s,
        name: '  Oslo Rust  ',
        timeZone: 'Europe/Oslo',
        city: 'Oslo',
        summary: 'Rust in Oslo.',
      },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('etag')).toBeTruthy();
    expect(res.body).toEqual({
      communityId: expect.any(String),
      slug: s,
      name: 'Oslo Rust',
      status: 'draft',
      city: 'Oslo',
      online: false,
      timeZone: 'Europe/Oslo',
      url: `${t.server.origin}/c/${s}`,
      summary: 'Rust in Oslo.',
      description: null,
      languages: ['en'],
      joinPolicy: 'open',
      createdUtc: expect.any(String),
      updatedUtc: expect.any(String),
    });
    const read = await t.api(`/communities/${res.body.communityId}`, { key: reader });
    expect(read.body).toEqual(res.body);
    expect(read.headers.get('etag')).toBe(res.headers.get('etag'));
  });

  it('answers a retry with the same Idempotency-Key with the first answer, making one community', async () => {
    const body = { slug: slug(), name: 'Retry circle', timeZone: 'Europe/Oslo', online: true };
    const headers = { 'idempotency-key': `create-${body.slug}` };
    const first = await t.api('/communities', { key: organiser, method: 'POST', body, headers });
    const again = await t.api('/communities', { key: organiser, method: 'POST', body, headers });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const rows = await t.server.services.db
      .selectFrom('communities')
      .select('id')
      .where('slug', '=', body.slug)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('names every bad field at once, and refuses fields it does not take', async () => {
    const bad = await t.api('/communities', {
      key: organiser,
      method: 'POST',
      body: { slug: 'Not A Slug', name: ' ', timeZone: 'Mars/Olympus', joinPolicy: 'invite', languages: [] },
    });
    const problem = expectProblem(bad, 400, 'invalidRequest');
    expect(problem.errors.map((e: any) => e.field).sort()).toEqual(
      ['joinPolicy', 'languages', 'name', 'slug', 'timeZone'].sort(),
    );
    const unknown = await create({ status: 'published' });
    const refused = expectProblem(unknown, 400, 'invalidRequest');
    expect(refused.errors.map((e: any) => e.field)).toEqual(['status']);
  });

  it("answers 409 slugTaken for another community's address", async () => {
    const first = await made();
    const taken = await create({ slug: first.slug });
    expect(expectProblem(taken, 409, 'slugTaken').detail).toContain(first.slug);
  });

  it('needs communities:write, and refuses the demonstration workspace', async () => {
    const refused = await create({}, reader);
    expect(expectProblem(refused, 403, 'missingScope').scope).toBe('communities:write');
    expectProblem(await create({}, t.server.demoKey), 403, 'demoWorkspace');
  });
});

describe('PATCH /communities/{communityId}', () => {
  it('changes what is sent, answers the new ETag, and refuses a stale If-Match with 412', async () => {
    const community = await made();
    const path = `/communities/${community.communityId}`;
    const etag = (await t.api(path, { key: reader })).headers.get('etag')!;
    clock.advance(1000);
    const changed = await t.api(path, {
      key: organiser,
      method: 'PATCH',
      body: { name: 'Oslo Rust Meetup', joinPolicy: 'approval', summary: null, languages: ['nb', 'en'] },
      headers: { 'if-match': etag },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      name: 'Oslo Rust Meetup',
      joinPolicy: 'approval',
      summary: null,
      languages: ['nb', 'en'],
      city: 'Oslo',
      slug: community.slug,
    });
    expect(changed.body.updatedUtc > community.updatedUtc).toBe(true);
    const newTag = changed.headers.get('etag');
    expect(newTag).toBe((await t.api(path, { key: reader })).headers.get('etag'));
    const stale = await t.api(path, {
      key: organiser,
      method: 'PATCH',
      body: { name: 'Lost update' },
      headers: { 'if-match': etag },
    });
    expectProblem(stale, 412, 'preconditionFailed');
    expect((await t.api(path, { key: reader })).body.name).toBe('Oslo Rust Meetup');
  });

  it("refuses another community's slug, a bad time zone, and another workspace's community", async () => {
    const a = await made();
    const b = await made();
    const path = `/communities/${b.communityId}`;
    expectProblem(
      await t.api(path, { key: organiser, method: 'PATCH', body: { slug: a.slug } }),
      409,
      'slugTaken',
    );
    const zone = expectProblem(
      await t.api(path, { key: organiser, method: 'PATCH', body: { timeZone: 'Nowhere' } }),
      400,
      'invalidRequest',
    );
    expect(zone.errors).toEqual([{ field: 'timeZone', message: '"Nowhere" is not an IANA time zone.' }]);
    const { workspaceId: other } = await t.workspace('Other', true);
    const theirs = sampleId(other, 'community/tokyo-frontend');
    expectProblem(
      await t.api(`/communities/${theirs}`, { key: organiser, method: 'PATCH', body: { name: 'Mine now' } }),
      404,
      'notFound',
    );
  });
});

describe('PUT /communities/{communityId}/status', () => {
  it('publishes the page at /c/{slug} and unpublishes it again', async () => {
    const community = await made({ summary: 'Crabs welcome.' });
    const status = (value: string) =>
      t.api(`/communities/${community.communityId}/status`, {
        key: organiser,
        method: 'PUT',
        body: { status: value },
      });
    expect((await page(community.url)).status).toBe(404);
    const published = await status('published');
    expect(published.status).toBe(200);
    expect(published.body.status).toBe('published');
    const shown = await page(community.url);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('<h1>Oslo Rust</h1>');
    expect(shown.text).toContain('Crabs welcome.');
    // Again: nothing changes.
    const again = await status('published');
    expect(again.body.updatedUtc).toBe(published.body.updatedUtc);
    expect((await status('draft')).body.status).toBe('draft');
    expect((await page(community.url)).status).toBe(404);
    expectProblem(await status('archived'), 400, 'invalidRequest');
  });
});

describe('members', () => {
  it('joins an open community as active, sending member.joined with the member', async () => {
    const community = await made();
    const res = await join(community.communityId, { name: 'Ola Nordmann', email: 'Ola@Example.com' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      memberId: expect.any(String),
      communityId: community.communityId,
      name: 'Ola Nordmann',
      email: 'ola@example.com',
      language: 'en',
      status: 'active',
      announcements: true,
      reminders: true,
      joinedUtc: expect.any(String),
      approvedUtc: null,
      updatedUtc: res.body.joinedUtc,
      erased: false,
      personalData: 'included',
    });
    const messages = await messagesAbout(res.body.memberId);
    expect(messages.map((m) => m.type)).toEqual(['member.joined']);
    expect(messages[0]!.eventId).toBeNull();
    expect(messages[0]!.payload.data).toEqual({
      community: { communityId: community.communityId, slug: community.slug, name: community.name },
      member: res.body,
    });
    const listed = await walkPages(t, reader, `/communities/${community.communityId}/members`);
    expect(listed.items).toEqual([res.body]);
    const counts = (await walkPages(t, reader, '/communities')).items.find(
      (c) => c.communityId === community.communityId,
    );
    expect(counts).toMatchObject({ members: 1, pendingMembers: 0 });
  });

  it('waits for approval where the community approves members, and joins when approved', async () => {
    const community = await made({ joinPolicy: 'approval', languages: ['nb', 'en'] });
    const res = await join(community.communityId, {
      name: 'Kari Nordmann',
      email: 'kari@example.com',
      reminders: false,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'pending',
      language: 'nb',
      reminders: false,
      approvedUtc: null,
    });
    const memberId = res.body.memberId;
    expect(await messagesAbout(memberId)).toEqual([]);

    clock.advance(60_000);
    const approved = await act(community.communityId, memberId, 'approve');
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ status: 'active', approvedUtc: expect.any(String) });
    expect(approved.body.approvedUtc).toBe(approved.body.updatedUtc);
    const joined = await messagesAbout(memberId);
    expect(joined.map((m) => m.type)).toEqual(['member.joined']);
    expect(joined[0]!.payload.data.member).toEqual(approved.body);
    // Approving again changes nothing and sends nothing more.
    const again = await act(community.communityId, memberId, 'approve');
    expect(again.body).toEqual(approved.body);
    expect(await messagesAbout(memberId)).toHaveLength(1);
  });

  it('declines someone waiting: status left, no message; an active member cannot be declined', async () => {
    const community = await made({ joinPolicy: 'approval' });
    const asked = (await join(community.communityId, { name: 'Per Hansen', email: 'per@example.com' })).body;
    const declined = await act(community.communityId, asked.memberId, 'decline');
    expect(declined.status).toBe(200);
    expect(declined.body).toMatchObject({ status: 'left', approvedUtc: null });
    expect(await messagesAbout(asked.memberId)).toEqual([]);
    const approveLeft = await act(community.communityId, asked.memberId, 'approve');
    expect(expectProblem(approveLeft, 409, 'memberNotPending').detail).toMatch(/declined/);

    const other = (await join(community.communityId, { name: 'Liv Berg', email: 'liv@example.com' })).body;
    await act(community.communityId, other.memberId, 'approve');
    expectProblem(await act(community.communityId, other.memberId, 'decline'), 409, 'memberNotPending');
  });

  it('leaves: an active member sends member.left; someone waiting withdraws without one', async () => {
    const community = await made({ joinPolicy: 'approval' });
    const member = (await join(community.communityId, { name: 'Nils Dahl', email: 'nils@example.com' })).body;
    await act(community.communityId, member.memberId, 'approve');
    clock.advance(1000);
    const left = await act(community.communityId, member.memberId, 'leave');
    expect(left.status).toBe(200);
    expect(left.body.status).toBe('left');
    const messages = await messagesAbout(member.memberId);
    expect(messages.map((m) => m.type)).toEqual(['member.joined', 'member.left']);
    expect(messages[1]!.payload.data.member).toEqual(left.body);
    const row = await t.server.services.db
      .selectFrom('community_members')
      .select('left_utc')
      .where('id', '=', member.memberId)
      .executeTakeFirstOrThrow();
    expect(row.left_utc).toBe(left.body.updatedUtc);
    // Leaving again changes nothing.
    expect((await act(community.communityId, member.memberId, 'leave')).body).toEqual(left.body);
    expect(await messagesAbout(member.memberId)).toHaveLength(2);

    const waiting = (await join(community.communityId, { name: 'Siv Lie', email: 'siv@example.com' })).body;
    expect((await act(community.communityId, waiting.memberId, 'leave')).body.status).toBe('left');
    expect(await messagesAbout(waiting.memberId)).toEqual([]);
  });

  it('refuses a second membership of one address (any case) with 409 alreadyMember; after leaving they may join again', async () => {
    const community = await made();
    const first = (await join(community.communityId, { name: 'Eva Moe', email: 'eva@example.com' })).body;
    const twice = await join(community.communityId, { name: 'Eva M.', email: 'EVA@example.com' });
    const problem = expectProblem(twice, 409, 'alreadyMember');
    expect(problem.memberId).toBe(first.memberId);
    expect(problem.detail).not.toContain('eva@');
    await act(community.communityId, first.memberId, 'leave');
    const back = await join(community.communityId, { name: 'Eva Moe', email: 'eva@example.com' });
    expect(back.status).toBe(201);
    expect(back.body.memberId).not.toBe(first.memberId);
    // The same address in another community is another membership.
    const elsewhere = await made();
    expect((await join(elsewhere.communityId, { name: 'Eva Moe', email: 'eva@example.com' })).status).toBe(
      201,
    );
  });

  it('answers a retried join with its first answer, not alreadyMember', async () => {
    const community = await made();
    const body = { name: 'Tor Lund', email: 'tor@example.com' };
    const headers = { 'idempotency-key': `join-${community.communityId}` };
    const first = await join(community.communityId, body, organiser, headers);
    const again = await join(community.communityId, body, organiser, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await messagesAbout(first.body.memberId)).toHaveLength(1);
  });

  it('withholds the name and email it answers from a key without people:read', async () => {
    const community = await made();
    const res = await join(community.communityId, { name: 'Anne Vik', email: 'anne@example.com' }, writer);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: null, email: null, personalData: 'withheld', status: 'active' });
    const stored = await t.server.services.db
      .selectFrom('community_members')
      .select(['name', 'email'])
      .where('id', '=', res.body.memberId)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ name: 'Anne Vik', email: 'anne@example.com' });
  });

  it('names every bad field of a join, and refuses unknown members and communities', async () => {
    const community = await made();
    const bad = await join(community.communityId, {
      name: '',
      email: 'not-an-address',
      language: 'English',
      announcements: 'yes',
      phone: '+47 1234',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(
      ['announcements', 'email', 'language', 'name', 'phone'].sort(),
    );
    const nobody = sampleId('nowhere', 'member');
    expectProblem(await act(community.communityId, nobody, 'approve'), 404, 'notFound');
    expectProblem(
      await join(sampleId('nowhere', 'community'), { name: 'A', email: 'a@example.com' }),
      404,
      'notFound',
    );
    // A member of one community is not found through another.
    const other = await made();
    const member = (await join(other.communityId, { name: 'B', email: 'b@example.com' })).body;
    expectProblem(await act(community.communityId, member.memberId, 'leave'), 404, 'notFound');
  });

  it('shows every move in the members list after updatedSince', async () => {
    const community = await made({ joinPolicy: 'approval' });
    const a = (await join(community.communityId, { name: 'A One', email: 'a1@example.com' })).body;
    const b = (await join(community.communityId, { name: 'B Two', email: 'b2@example.com' })).body;
    clock.advance(1000);
    const since = clock.now().toISOString();
    clock.advance(1000);
    await act(community.communityId, b.memberId, 'approve');
    const changed = await t.api(
      `/communities/${community.communityId}/members?updatedSince=${encodeURIComponent(since)}`,
      { key: reader },
    );
    expect(changed.body.data.map((m: any) => m.memberId)).toEqual([b.memberId]);
    expect(a.status).toBe('pending');
  });

  it('needs communities:write for every member change, and refuses the demonstration workspace', async () => {
    const community = await made();
    const member = (await join(community.communityId, { name: 'C', email: 'c@example.com' })).body;
    expectProblem(
      await join(community.communityId, { name: 'D', email: 'd@example.com' }, reader),
      403,
      'missingScope',
    );
    for (const verb of ['approve', 'decline', 'leave'] as const)
      expectProblem(await act(community.communityId, member.memberId, verb, reader), 403, 'missingScope');
    const demoCommunity = sampleId('demo', 'community');
    expectProblem(
      await join(demoCommunity, { name: 'E', email: 'e@example.com' }, t.server.demoKey),
      403,
      'demoWorkspace',
    );
  });
});

describe('PUT /events/{eventId}/community', () => {
  it("links an event as a community's meetup (its page and counts show it) and unlinks it", async () => {
    const community = await made({ summary: 'Meetups.' });
    await t.api(`/communities/${community.communityId}/status`, {
      key: organiser,
      method: 'PUT',
      body: { status: 'published' },
    });
    const event = await t.api('/events', {
      key: organiser,
      method: 'POST',
      body: eventBody({ name: 'Oslo Rust #1' }),
    });
    expect(event.status).toBe(201);
    const eventId = event.body.eventId;
    await t.api(`/events/${eventId}/status`, {
      key: organiser,
      method: 'PUT',
      body: { status: 'published' },
    });
    const link = (communityId: string | null, key = organiser) =>
      t.api(`/events/${eventId}/community`, { key, method: 'PUT', body: { communityId } });

    const linked = await link(community.communityId);
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body).toEqual({
      eventId,
      community: { communityId: community.communityId, slug: community.slug, name: community.name },
    });
    const item = async () =>
      (await walkPages(t, reader, '/communities')).items.find((c) => c.communityId === community.communityId);
    expect(await item()).toMatchObject({ upcomingMeetups: 1, nextMeetup: { name: 'Oslo Rust #1' } });
    expect((await page(community.url)).text).toContain('Oslo Rust #1');

    const unlinked = await link(null);
    expect(unlinked.body).toEqual({ eventId, community: null });
    expect(await item()).toMatchObject({ upcomingMeetups: 0, nextMeetup: null });
    expect((await page(community.url)).text).not.toContain('Oslo Rust #1');
    // Unlinking again changes nothing.
    expect((await link(null)).body).toEqual({ eventId, community: null });

    expectProblem(await link(sampleId('nowhere', 'community')), 404, 'notFound');
    const { workspaceId: other } = await t.workspace('Elsewhere', true);
    const theirEvent = sampleId(other, 'event/summit');
    expectProblem(
      await t.api(`/events/${theirEvent}/community`, {
        key: organiser,
        method: 'PUT',
        body: { communityId: community.communityId },
      }),
      404,
      'eventNotFound',
    );
    expectProblem(await link(community.communityId, reader), 403, 'missingScope');
    expectProblem(
      await t.api(`/events/${eventId}/community`, { key: organiser, method: 'PUT', body: {} }),
      400,
      'invalidRequest',
    );
  });
});
