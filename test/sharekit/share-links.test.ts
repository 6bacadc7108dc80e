// Share links made, listed and removed live (issue 25, item 7), through the MCP client alone as an
// assistant would and through HTTPS: the short address /s/{slug}/{code} counts a click (also many
// at once) and sends the visitor to the event's page with the ref; a registration sent with the
// ref counts for the sharer (a bad ref records nothing and refuses nothing); the leaderboard moves
// with both. The rules of every write: demonstration, moduleOff, missingScope, idempotency,
// If-Match, strict input naming each field, updatedSince; erasure of a named sharer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { sampleId } from '../../db/sample/ids';
import { expectProblem } from '../support/fixtures';
import { callTool, person, register, sampleIds, walkPages } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

const linkFields = [
  'linkId',
  'eventId',
  'sharerId',
  'kind',
  'attendeeId',
  'speakerId',
  'sponsorId',
  'channel',
  'code',
  'shortUrl',
  'sharedUtc',
  'updatedUtc',
].sort();

let t: TestServer;
let workspaceId: string;
let writer: string;
let summit: string;
let slug: string;
let standard: string;
const db = () => t.server.services.db;
const links = (eventId = summit) => `/events/${eventId}/share-links`;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Share kit live', true));
  ({ key: writer } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  summit = sampleIds(workspaceId).event('summit');
  standard = sampleIds(workspaceId).ticketType('summit', 'standard');
  slug = (await t.api(`/events/${summit}`, { key: writer })).body.slug;
});
afterAll(async () => t.close());

/** Follows a short address as a browser's first request would, without following the redirect. */
async function visit(path: string): Promise<Response> {
  return t.fetch(`${t.server.origin}${path}`, { redirect: 'manual' });
}

async function boardEntry(key: string, sharerId: string, eventId = summit) {
  const { items } = await walkPages(t, key, `/events/${eventId}/sharekit/leaderboard`);
  return items.find((e) => e.sharerId === sharerId);
}

async function clicksOf(linkId: string): Promise<number> {
  const rows = await db().selectFrom('share_clicks').select('id').where('link_id', '=', linkId).execute();
  return rows.length;
}

async function freshAttendee(): Promise<string> {
  const res = await register(t, writer, summit, [person(standard)]);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.attendees[0].attendeeId;
}

describe('an assistant runs the share kit through MCP alone', () => {
  it('makes a link for a speaker, sees a click and a registration through it move the leaderboard', async () => {
    const client = await t.mcp(writer);
    const speakers = await callTool(client, 'list_speakers', { eventId: summit });
    const speaker = speakers.data.data.find((s: any) => s.name !== null);
    const made = await callTool(client, 'create_share_link', {
      eventId: summit,
      speakerId: speaker.speakerId,
      channel: 'facebook',
    });
    expect(made.isError, JSON.stringify(made.data)).toBe(false);
    expect(made.data).toMatchObject({ kind: 'speaker', speakerId: speaker.speakerId, channel: 'facebook' });
    expect(made.data.shortUrl).toBe(`${t.server.origin}/s/${slug}/${made.data.code}`);
    const before = (await callTool(client, 'list_sharekit_leaderboard', { eventId: summit })).data.data.find(
      (e: any) => e.sharerId === made.data.sharerId,
    );

    // Someone follows the link, then registers with its ref.
    const res = await visit(new URL(made.data.shortUrl).pathname);
    expect(res.status).toBe(302);
    const registered = await callTool(client, 'register_attendees', {
      eventId: summit,
      attendees: [person(standard)],
      shareRef: made.data.code,
    });
    expect(registered.isError, JSON.stringify(registered.data)).toBe(false);

    const listed = await callTool(client, 'list_share_links', {
      eventId: summit,
      sharerId: made.data.sharerId,
    });
    expect(listed.data.data.map((l: any) => l.linkId)).toContain(made.data.linkId);
    const after = (await callTool(client, 'list_sharekit_leaderboard', { eventId: summit })).data.data.find(
      (e: any) => e.sharerId === made.data.sharerId,
    );
    expect(after).toMatchObject({
      name: speaker.name,
      clicks: before.clicks + 1,
      registrations: before.registrations + 1,
    });

    const removed = await callTool(client, 'delete_share_link', {
      eventId: summit,
      linkId: made.data.linkId,
    });
    expect(removed.data).toEqual({ linkId: made.data.linkId, deleted: true });
    const again = await callTool(client, 'list_share_links', {
      eventId: summit,
      sharerId: made.data.sharerId,
    });
    expect(again.data.data.map((l: any) => l.linkId)).not.toContain(made.data.linkId);
    await client.close();
  });
});

describe('POST /events/{eventId}/share-links', () => {
  it('makes an attendee a sharer with a link per channel, answering 201 with an entity tag and exactly the documented fields', async () => {
    const attendeeId = await freshAttendee();
    const res = await t.api(links(), {
      key: writer,
      method: 'POST',
      body: { attendeeId, channel: 'linkedin' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(linkFields);
    expect(res.body).toMatchObject({ kind: 'attendee', attendeeId, speakerId: null, sponsorId: null });
    expect(res.body.code).toMatch(/^[a-z2-9]{8}$/);
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    // A second channel is another link of the same sharer; the same channel gives the link back.
    const email = await t.api(links(), {
      key: writer,
      method: 'POST',
      body: { attendeeId, channel: 'email' },
    });
    expect(email.body.sharerId).toBe(res.body.sharerId);
    expect(email.body.linkId).not.toBe(res.body.linkId);
    const same = await t.api(links(), {
      key: writer,
      method: 'POST',
      body: { attendeeId, channel: 'linkedin' },
    });
    expect(same.body).toEqual(res.body);
    const sharers = await db()
      .selectFrom('sharers')
      .select('id')
      .where('attendee_id', '=', attendeeId)
      .execute();
    expect(sharers).toHaveLength(1);
  });

  it('names a person sharing for a sponsor, whose name the leaderboard shows with people:read only', async () => {
    const sponsorId = sampleId(workspaceId, 'sponsor/summit/fjord');
    const res = await t.api(links(), {
      key: writer,
      method: 'POST',
      body: { sponsorId, name: 'Sigrid Lund', email: 'Sigrid.Lund@fjord.example.com', channel: 'x' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ kind: 'sponsor', sponsorId, attendeeId: null });
    expect(JSON.stringify(res.body)).not.toContain('Sigrid');
    expect(await boardEntry(writer, res.body.sharerId)).toMatchObject({ name: 'Sigrid Lund' });
    const { key: noPeople } = await t.key({ workspaceId, scopes: ['sharekit:read'], expires: 'never' });
    expect(await boardEntry(noPeople, res.body.sharerId)).toMatchObject({
      name: null,
      personalData: 'withheld',
    });
  });

  it('replays the first answer for a retry with the same Idempotency-Key', async () => {
    const attendeeId = await freshAttendee();
    const send = () =>
      t.api(links(), {
        key: writer,
        method: 'POST',
        body: { attendeeId, channel: 'messaging' },
        headers: { 'idempotency-key': `share-${attendeeId}` },
      });
    const first = await send();
    const second = await send();
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    const rows = await db()
      .selectFrom('share_links')
      .select('id')
      .where('sharer_id', '=', first.body.sharerId)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('names every wrong field at once, and refuses fields it does not know', async () => {
    const none = expectProblem(
      await t.api(links(), { key: writer, method: 'POST', body: { channel: 'tiktok', name: 'Ann' } }),
      400,
      'invalidRequest',
    );
    const fields = none.errors.map((e: any) => e.field).sort();
    expect(fields).toEqual(
      expect.arrayContaining(['attendeeId', 'channel', 'name', 'speakerId', 'sponsorId']),
    );
    const sponsorId = sampleId(workspaceId, 'sponsor/summit/fjord');
    const unnamed = expectProblem(
      await t.api(links(), { key: writer, method: 'POST', body: { sponsorId, channel: 'x' } }),
      400,
      'invalidRequest',
    );
    expect(unnamed.errors.map((e: any) => e.field).sort()).toEqual(['email', 'name']);
    const extra = expectProblem(
      await t.api(links(), {
        key: writer,
        method: 'POST',
        body: { attendeeId: await freshAttendee(), channel: 'x', clicks: 99 },
      }),
      400,
      'invalidRequest',
    );
    expect(extra.errors.map((e: any) => e.field)).toEqual(['clicks']);
  });

  it("refuses another event's people: 404 attendeeNotFound, notFound for a speaker or sponsor", async () => {
    const forum = sampleIds(workspaceId).event('forum');
    const summitAttendee = await freshAttendee();
    expectProblem(
      await t.api(links(forum), {
        key: writer,
        method: 'POST',
        body: { attendeeId: summitAttendee, channel: 'x' },
      }),
      404,
      'attendeeNotFound',
    );
    const speakerId = sampleId(workspaceId, 'speaker/summit/kenji');
    expectProblem(
      await t.api(links(forum), { key: writer, method: 'POST', body: { speakerId, channel: 'x' } }),
      404,
      'notFound',
    );
  });

  it('refuses the demonstration workspace, a key without sharekit:write, and a switched-off share kit', async () => {
    const demo = t.server.demoKey;
    const demoEvent = (await t.api('/events', { key: demo })).body.data[0].eventId;
    expectProblem(
      await t.api(links(demoEvent), {
        key: demo,
        method: 'POST',
        body: { speakerId: sampleId(workspaceId, 'speaker/summit/kenji'), channel: 'x' },
      }),
      403,
      'demoWorkspace',
    );
    const { key: reader } = await t.key({ workspaceId, scopes: ['sharekit:read'], expires: 'never' });
    const attendeeId = await freshAttendee();
    expectProblem(
      await t.api(links(), { key: reader, method: 'POST', body: { attendeeId, channel: 'x' } }),
      403,
      'missingScope',
    );
    const meetup = sampleIds(workspaceId).event('meetup');
    expectProblem(
      await t.api(links(meetup), { key: writer, method: 'POST', body: { attendeeId, channel: 'x' } }),
      409,
      'moduleOff',
    );
    expectProblem(await t.api(links(meetup), { key: writer }), 409, 'moduleOff');
    const { key: noShareKit } = await t.key({ workspaceId, scopes: ['events:read'], expires: 'never' });
    expectProblem(await t.api(links(), { key: noShareKit }), 403, 'missingScope');
  });
});

describe('GET /events/{eventId}/share-links', () => {
  it('pages every live link of the event with a cursor, and by updatedSince', async () => {
    const sample = await db()
      .selectFrom('share_links')
      .select('id')
      .where('event_id', '=', summit)
      .where('removed_utc', 'is', null)
      .execute();
    const { items, pages } = await walkPages(t, writer, `${links()}?limit=3`);
    expect(pages).toBeGreaterThan(1);
    expect(items.map((l) => l.linkId).sort()).toEqual(sample.map((r) => r.id).sort());
    for (const item of items) expect(Object.keys(item).sort()).toEqual(linkFields);

    const since = new Date(Date.now() - 1000).toISOString();
    await new Promise((r) => setTimeout(r, 1100));
    const made = await t.api(links(), {
      key: writer,
      method: 'POST',
      body: { attendeeId: await freshAttendee(), channel: 'other' },
    });
    const recent = await t.api(
      `${links()}?updatedSince=${encodeURIComponent(new Date(Date.now() - 500).toISOString())}`,
      {
        key: writer,
      },
    );
    expect(recent.body.data.map((l: any) => l.linkId)).toEqual([made.body.linkId]);
    expect(
      (await t.api(`${links()}?updatedSince=${encodeURIComponent(since)}`, { key: writer })).status,
    ).toBe(200);
    expectProblem(
      await t.api(`${links()}?updatedSince=yesterday`, { key: writer }),
      400,
      'invalidUpdatedSince',
    );
  });
});

describe('DELETE /events/{eventId}/share-links/{linkId}', () => {
  it('honours If-Match, answers 204, then 404; the address stops answering and what the link brought stays counted', async () => {
    const made = await t.api(links(), {
      key: writer,
      method: 'POST',
      body: { attendeeId: await freshAttendee(), channel: 'x' },
    });
    const path = new URL(made.body.shortUrl).pathname;
    expect((await visit(path)).status).toBe(302);
    await register(t, writer, summit, [person(standard)], { body: { shareRef: made.body.code } });
    const counted = await boardEntry(writer, made.body.sharerId);
    expect(counted).toMatchObject({ clicks: 1, registrations: 1 });

    const url = `${links()}/${made.body.linkId}`;
    expectProblem(
      await t.api(url, { key: writer, method: 'DELETE', headers: { 'if-match': '"stale"' } }),
      412,
      'preconditionFailed',
    );
    const { key: reader } = await t.key({ workspaceId, scopes: ['sharekit:read'], expires: 'never' });
    expectProblem(await t.api(url, { key: reader, method: 'DELETE' }), 403, 'missingScope');
    const removed = await t.api(url, {
      key: writer,
      method: 'DELETE',
      headers: { 'if-match': made.headers.get('etag')! },
    });
    expect(removed.status).toBe(204);
    expectProblem(await t.api(url, { key: writer, method: 'DELETE' }), 404, 'notFound');

    const gone = await visit(path);
    expect(gone.status).toBe(404);
    expect(gone.headers.get('content-type')).toMatch(/text\/html/);
    // A registration with the removed link's ref goes ahead and counts for nobody.
    const late = await register(t, writer, summit, [person(standard)], {
      body: { shareRef: made.body.code },
    });
    expect(late.status).toBe(201);
    expect(await boardEntry(writer, made.body.sharerId)).toMatchObject({ clicks: 1, registrations: 1 });
  });
});

describe('the short address /s/{slug}/{code}', () => {
  it('counts a click and sends the visitor to the event page with the ref, never from a cache', async () => {
    const made = await t.api(links(), {
      key: writer,
      method: 'POST',
      body: { attendeeId: await freshAttendee(), channel: 'linkedin' },
    });
    const res = await visit(`/s/${slug}/${made.body.code}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${t.server.origin}/e/${slug}?ref=${made.body.code}`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await clicksOf(made.body.linkId)).toBe(1);
    // The page it leads to is there.
    const page = await t.fetch(res.headers.get('location')!);
    expect(page.status).toBe(200);
  });

  it('counts every one of many clicks arriving at once', async () => {
    const made = await t.api(links(), {
      key: writer,
      method: 'POST',
      body: { attendeeId: await freshAttendee(), channel: 'facebook' },
    });
    const path = `/s/${slug}/${made.body.code}`;
    const answers = await Promise.all(Array.from({ length: 60 }, () => visit(path)));
    expect(answers.every((r) => r.status === 302)).toBe(true);
    expect(await clicksOf(made.body.linkId)).toBe(60);
    expect(await boardEntry(writer, made.body.sharerId)).toMatchObject({ clicks: 60 });
  });

  it('answers a page saying so, 404, for an unknown code, a malformed one, another event, or a draft event', async () => {
    for (const path of [
      `/s/${slug}/nosuchcode`,
      `/s/${slug}/%27%20or%201%3D1`,
      `/s/no-such-event/ingrid-linkedin`,
      // The sample's link removed since.
      `/s/${slug}/attendee-3-email`,
    ]) {
      const res = await visit(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(await res.text()).toContain('No such link');
    }
    // The draft forum: its links are not followed (its page is not there either), nothing counted.
    const forum = sampleIds(workspaceId).event('forum');
    const forumSlug = (await t.api(`/events/${forum}`, { key: writer })).body.slug;
    const made = await t.api(links(forum), {
      key: writer,
      method: 'POST',
      body: { speakerId: await forumSpeaker(forum), channel: 'x' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await visit(`/s/${forumSlug}/${made.body.code}`)).status).toBe(404);
    expect(await clicksOf(made.body.linkId)).toBe(0);
  });

  it('with the share kit switched off, still leads to the event page but counts nothing and passes no ref', async () => {
    const made = await t.api(links(), {
      key: writer,
      method: 'POST',
      body: { attendeeId: await freshAttendee(), channel: 'email' },
    });
    const patch = (sharekit: boolean) =>
      t.api(`/events/${summit}`, { key: writer, method: 'PATCH', body: { modules: { sharekit } } });
    expect((await patch(false)).status).toBe(200);
    try {
      const res = await visit(`/s/${slug}/${made.body.code}`);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`${t.server.origin}/e/${slug}`);
      expect(await clicksOf(made.body.linkId)).toBe(0);
    } finally {
      await patch(true);
    }
  });
});

describe('registering through a ref (POST /events/{eventId}/attendees, shareRef)', () => {
  it('counts each ticket of the order for the sharer, in the registration itself', async () => {
    const made = await t.api(links(), {
      key: writer,
      method: 'POST',
      body: { attendeeId: await freshAttendee(), channel: 'messaging' },
    });
    const res = await register(t, writer, summit, [person(standard), person(standard)], {
      body: { shareRef: made.body.code },
    });
    expect(res.status).toBe(201);
    const rows = await db()
      .selectFrom('share_registrations')
      .select(['attendee_id', 'link_id'])
      .where('link_id', '=', made.body.linkId)
      .execute();
    expect(rows.map((r) => r.attendee_id).sort()).toEqual(
      res.body.attendees.map((a: any) => a.attendeeId).sort(),
    );
    expect(await boardEntry(writer, made.body.sharerId)).toMatchObject({ registrations: 2 });
  });

  it('ignores a ref that names no link of the event: the registration goes ahead and nothing is counted', async () => {
    const before = await db().selectFrom('share_registrations').select('attendee_id').execute();
    // ingrid-linkedin is a link of the summit, not of the remote event.
    const remote = sampleIds(workspaceId).event('remote');
    const remoteType = sampleIds(workspaceId).ticketType('remote', 'free');
    for (const [eventId, typeId, ref] of [
      [summit, standard, 'no-such-ref'],
      [remote, remoteType, 'ingrid-linkedin'],
    ] as const) {
      const res = await register(t, writer, eventId, [person(typeId)], { body: { shareRef: ref } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    expect(await db().selectFrom('share_registrations').select('attendee_id').execute()).toHaveLength(
      before.length,
    );
  });
});

describe('erasure', () => {
  it("erases a named sharer's name and email, found by the email given when their link was made", async () => {
    const sponsorId = sampleId(workspaceId, 'sponsor/summit/fjord');
    const made = await t.api(links(), {
      key: writer,
      method: 'POST',
      body: { sponsorId, name: 'Tove Aas', email: 'tove.aas@fjord.example.com', channel: 'linkedin' },
      headers: { 'idempotency-key': 'tove-link' },
    });
    expect(made.status).toBe(201);
    const counts = await erasePerson(await operatorContext(t.server.services, workspaceId), {
      email: 'tove.aas@fjord.example.com',
    });
    expect(counts.sharers).toBe(1);
    const row = await db()
      .selectFrom('sharers')
      .selectAll()
      .where('id', '=', made.body.sharerId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: null, email: null, erased: 1 });
    expect(await boardEntry(writer, made.body.sharerId)).toMatchObject({ name: null, erased: true });
    const kept = await db().selectFrom('idempotency_records').selectAll().execute();
    expect(JSON.stringify(kept)).not.toMatch(/Tove|tove\.aas/);
  });
});

async function forumSpeaker(forum: string): Promise<string> {
  const res = await t.api(`/events/${forum}/speakers`, {
    key: writer,
    method: 'POST',
    body: { name: 'Draft Speaker' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.speakerId;
}
