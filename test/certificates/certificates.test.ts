// Certificates issued live (issue 26, item 4), through the real HTTPS server: attendance only to a
// ticket that was checked in (409 notEligibleForCertificate otherwise), one by one or for the whole
// event (idempotent, answering how many); speaker and crew kinds only to a speaker's or crew
// member's ticket; one live certificate of a kind per ticket, under concurrent calls too; revoked
// (204, kept, the page says so); each with an unguessable code and a public page /v/{code} (HTML and
// JSON) that shows the event, kind, date and holder until the holder is erased; the API's rules
// (scopes, strict bodies, Idempotency-Key, If-Match 412, demo refusal, paging and updatedSince).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspaceId } from '../../core/admin/demo-workspace';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { type DoorEvent, seedDoorEvent } from '../support/doors';
import { expectProblem } from '../support/fixtures';
import { callTool, outbox, person, register, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let organiser: string;
let writer: string;
let reader: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Certificates', true));
  ({ key: organiser } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ({ key: writer } = await t.key({ workspaceId, scopes: ['certificates:write'], expires: 'never' }));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['attendees:read'], expires: 'never' }));
});
afterAll(async () => t?.close());

async function newEvent(): Promise<DoorEvent> {
  return seedDoorEvent(t, workspaceId, organiser);
}

/** Registers one person with this email (and name); answers the attendee id. */
async function holder(e: DoorEvent, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await register(t, organiser, e.eventId, [person(e.general, extra)]);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.attendees[0].attendeeId;
}

const checkIn = async (e: DoorEvent, attendeeId: string) =>
  expect(
    (
      await t.api(`/events/${e.eventId}/attendees/${attendeeId}/check-in`, {
        key: organiser,
        method: 'POST',
        body: {},
      })
    ).status,
  ).toBe(200);

const issue = (
  eventId: string,
  body: Record<string, unknown>,
  key = writer,
  headers?: Record<string, string>,
) => t.api(`/events/${eventId}/certificates`, { key, method: 'POST', body, headers });

const issueAll = (eventId: string, key = writer) =>
  t.api(`/events/${eventId}/certificates/attendance`, { key, method: 'POST', body: {} });

const list = async (eventId: string, query = '', key = reader) => {
  const res = await t.api(`/events/${eventId}/certificates${query}`, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

const verify = async (url: string, accept = 'text/html') => {
  const res = await t.fetch(url, { headers: { accept } });
  return { status: res.status, text: await res.text() };
};

describe('issuing one by one', () => {
  it('refuses a ticket never checked in (409 naming why), then issues once it is, with a public page', async () => {
    const e = await newEvent();
    const attendeeId = await holder(e, { firstName: 'Grace', lastName: 'Hopper' });
    const refused = expectProblem(await issue(e.eventId, { attendeeId }), 409, 'notEligibleForCertificate');
    expect(refused.detail).toMatch(/checked in/);

    await checkIn(e, attendeeId);
    const res = await issue(e.eventId, { attendeeId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    expect(res.body).toMatchObject({ attendeeId, eventId: e.eventId, kind: 'attendance', revokedUtc: null });
    // certificates:write alone does not read people: the name is withheld in the answer.
    expect(res.body).toMatchObject({ firstName: null, personalData: 'withheld' });
    const code = new URL(res.body.verificationUrl).pathname.split('/').at(-1)!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{24}$/);
    for (const id of [res.body.certificateId, attendeeId, e.eventId])
      expect(id.replace(/-/g, '')).not.toContain(code.slice(0, 8));

    const page = await verify(res.body.verificationUrl);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Certificate of attendance');
    expect(page.text).toContain('Grace Hopper');
    expect(page.text).toContain('Valid');
    const json = await verify(res.body.verificationUrl, 'application/json');
    expect(JSON.parse(json.text)).toMatchObject({
      found: true,
      valid: true,
      kind: 'attendance',
      holder: 'Grace Hopper',
      issuedUtc: res.body.issuedUtc,
    });
    // A second live one of the kind is refused, naming the one held.
    const again = expectProblem(await issue(e.eventId, { attendeeId }), 409, 'certificateExists');
    expect(again.certificateId).toBe(res.body.certificateId);
  });

  it('gives speaker and crew certificates only to a speaker or crew member of the event', async () => {
    const e = await newEvent();
    const speakerEmail = `speaker.${Date.now()}@example.org`;
    const crewEmail = `crew.${Date.now()}@example.org`;
    const speaker = await holder(e, { email: speakerEmail });
    const crew = await holder(e, { email: crewEmail });
    for (const [attendeeId, kind] of [
      [speaker, 'speaker'],
      [crew, 'crew'],
      [speaker, 'crew'],
      [crew, 'speaker'],
    ])
      expectProblem(await issue(e.eventId, { attendeeId, kind }), 409, 'notEligibleForCertificate');
    expect(
      (
        await t.api(`/events/${e.eventId}/speakers`, {
          key: organiser,
          method: 'POST',
          body: { name: 'Sam Speaker', email: speakerEmail.toUpperCase() },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await t.api(`/events/${e.eventId}/crew`, {
          key: organiser,
          method: 'POST',
          body: { name: 'Cleo Crew', email: crewEmail },
        })
      ).status,
    ).toBe(201);
    expect((await issue(e.eventId, { attendeeId: speaker, kind: 'speaker' })).status).toBe(201);
    expect((await issue(e.eventId, { attendeeId: crew, kind: 'crew' })).status).toBe(201);
    // Neither came through a door: no attendance certificate for them.
    expectProblem(await issue(e.eventId, { attendeeId: crew }), 409, 'notEligibleForCertificate');
    expectProblem(
      await issue(e.eventId, { attendeeId: '00000000-0000-4000-8000-000000000000' }),
      404,
      'attendeeNotFound',
    );
  });

  it('refuses a cancelled ticket even if it was checked in', async () => {
    const e = await newEvent();
    const attendeeId = await holder(e);
    await checkIn(e, attendeeId);
    const cancelled = await t.api(`/events/${e.eventId}/attendees/${attendeeId}/cancel`, {
      key: organiser,
      method: 'POST',
      body: {},
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expectProblem(await issue(e.eventId, { attendeeId }), 409, 'notEligibleForCertificate');
  });
});

describe('issuing for the whole event', () => {
  it('issues to everyone checked in who has none yet, answers how many, and issues nothing more the second time', async () => {
    const e = await newEvent();
    const came = await Promise.all([holder(e), holder(e), holder(e)]);
    const stayedHome = await holder(e);
    for (const id of came) await checkIn(e, id);
    expect((await issue(e.eventId, { attendeeId: came[0] })).status).toBe(201);

    const first = await issueAll(e.eventId);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ eventId: e.eventId, issued: 2, checkedIn: 3 });
    expect((await issueAll(e.eventId)).body).toMatchObject({ issued: 0, checkedIn: 3 });
    const held = (await list(e.eventId)).data.map((c: any) => c.attendeeId).sort();
    expect(held).toEqual([...came].sort());
    expect(held).not.toContain(stayedHome);
    const messages = (await outbox(t, workspaceId)).filter(
      (m) => m.eventId === e.eventId && m.type === 'certificate.issued',
    );
    expect(messages.map((m) => m.payload.data.certificate.attendeeId).sort()).toEqual([...came].sort());
  });

  it('gives each ticket one certificate when calls run at once', async () => {
    const e = await newEvent();
    const came = await e.register(e.general, 12);
    for (const id of came) await checkIn(e, id);
    const answers = await Promise.all([issueAll(e.eventId), issueAll(e.eventId), issueAll(e.eventId)]);
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(answers.reduce((n, a) => n + a.body.issued, 0)).toBe(12);
    const rows = await t.server.services.db
      .selectFrom('certificates')
      .select('attendee_id')
      .where('event_id', '=', e.eventId)
      .execute();
    expect(rows.length).toBe(12);
    expect(new Set(rows.map((r) => r.attendee_id)).size).toBe(12);
  });
});

describe('revoking', () => {
  it('revokes (204, kept), the page says revoked, a stale If-Match answers 412, and a new one may be issued', async () => {
    const e = await newEvent();
    const attendeeId = await holder(e);
    await checkIn(e, attendeeId);
    const made = await issue(e.eventId, { attendeeId });
    const path = `/events/${e.eventId}/certificates/${made.body.certificateId}`;
    expectProblem(
      await t.api(path, { key: writer, method: 'DELETE', headers: { 'if-match': '"stale"' } }),
      412,
      'preconditionFailed',
    );
    const gone = await t.api(path, {
      key: writer,
      method: 'DELETE',
      headers: { 'if-match': made.headers.get('etag')! },
    });
    expect(gone.status).toBe(204);
    expect((await t.api(path, { key: writer, method: 'DELETE' })).status).toBe(204);
    const page = await verify(made.body.verificationUrl);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Revoked');
    expect(page.text).not.toContain('Valid:');
    expect(JSON.parse((await verify(made.body.verificationUrl, 'application/json')).text).valid).toBe(false);
    const [kept] = (await list(e.eventId)).data;
    expect(kept.revokedUtc).not.toBeNull();
    expect((await issue(e.eventId, { attendeeId })).status).toBe(201);
    expectProblem(
      await t.api(`/events/${e.eventId}/certificates/00000000-0000-4000-8000-000000000000`, {
        key: writer,
        method: 'DELETE',
      }),
      404,
      'notFound',
    );
  });

  it('answers 404 for a code nobody has, as a page and as JSON', async () => {
    const page = await verify(`${t.server.origin}/v/AAAAAAAAAAAAAAAAAAAAAAAA`);
    expect(page.status).toBe(404);
    expect(page.text).toContain('No such certificate');
    const json = await verify(`${t.server.origin}/v/not-a-code`, 'application/json');
    expect(json.status).toBe(404);
    expect(JSON.parse(json.text)).toEqual({ found: false, valid: false });
  });
});

describe('the API rules', () => {
  it('reads with attendees:read (names with people:read), writes with certificates:write', async () => {
    const e = await newEvent();
    const attendeeId = await holder(e, { firstName: 'Ida', lastName: 'Reader' });
    await checkIn(e, attendeeId);
    expect(expectProblem(await issue(e.eventId, { attendeeId }, reader), 403, 'missingScope').scope).toBe(
      'certificates:write',
    );
    expect((await issue(e.eventId, { attendeeId })).status).toBe(201);
    expect((await list(e.eventId, '', writer)).data).toHaveLength(1);
    expect((await list(e.eventId)).data[0]).toMatchObject({ firstName: null, personalData: 'withheld' });
    expect((await list(e.eventId, '', organiser)).data[0]).toMatchObject({
      firstName: 'Ida',
      lastName: 'Reader',
      personalData: 'included',
    });
  });

  it('refuses unknown fields and names every bad one', async () => {
    const e = await newEvent();
    const res = expectProblem(
      await issue(e.eventId, { attendeeId: 'nope', kind: 'winner', colour: 'gold' }),
      400,
      'invalidRequest',
    );
    const fields = (res.errors as { field: string }[]).map((f) => f.field).sort();
    expect(fields).toEqual(['attendeeId', 'colour', 'kind']);
  });

  it('replays an issue sent again with the same Idempotency-Key: one certificate', async () => {
    const e = await newEvent();
    const attendeeId = await holder(e);
    await checkIn(e, attendeeId);
    const headers = { 'idempotency-key': `cert-${attendeeId}` };
    const first = await issue(e.eventId, { attendeeId }, writer, headers);
    const second = await issue(e.eventId, { attendeeId }, writer, headers);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect((await list(e.eventId)).data).toHaveLength(1);
  });

  it('pages the list by cursor and by updatedSince', async () => {
    const e = await newEvent();
    const came = await e.register(e.general, 5);
    for (const id of came) await checkIn(e, id);
    await issueAll(e.eventId);
    const first = await list(e.eventId, '?limit=2');
    expect(first.data).toHaveLength(2);
    const second = await list(e.eventId, `?limit=2&cursor=${encodeURIComponent(first.nextCursor)}`);
    const third = await list(e.eventId, `?limit=2&cursor=${encodeURIComponent(second.nextCursor)}`);
    const seen = [...first.data, ...second.data, ...third.data].map((c: any) => c.certificateId);
    expect(new Set(seen).size).toBe(5);
    const revoked = third.data[0] ?? second.data[1];
    const since = new Date(Date.parse(revoked.updatedUtc) + 1).toISOString();
    expect(
      (
        await t.api(`/events/${e.eventId}/certificates/${revoked.certificateId}`, {
          key: writer,
          method: 'DELETE',
        })
      ).status,
    ).toBe(204);
    const changed = await list(e.eventId, `?updatedSince=${encodeURIComponent(since)}`);
    expect(changed.data.map((c: any) => c.certificateId)).toEqual([revoked.certificateId]);
    expectProblem(
      await t.api(`/events/${e.eventId}/certificates?updatedSince=yesterday`, { key: reader }),
      400,
      'invalidUpdatedSince',
    );
  });

  it('is refused in the demonstration workspace with 403 demoWorkspace', async () => {
    const summit = sampleIds(demoWorkspaceId).event('summit');
    const attendee = (await t.api(`/events/${summit}/attendees?limit=1`, { key: t.server.demoKey })).body
      .data[0];
    for (const res of [
      await issue(summit, { attendeeId: attendee.attendeeId }, t.server.demoKey),
      await issueAll(summit, t.server.demoKey),
    ])
      expectProblem(res, 403, 'demoWorkspace');
  });
});

describe('erasure', () => {
  it("takes the holder's name off the public page and out of the certificate", async () => {
    const e = await newEvent();
    const email = `erase.cert.${Date.now()}@example.org`;
    const attendeeId = await holder(e, { firstName: 'Erwin', lastName: 'Erasable', email });
    await checkIn(e, attendeeId);
    const made = await issue(e.eventId, { attendeeId });
    expect((await verify(made.body.verificationUrl)).text).toContain('Erwin Erasable');
    await erasePerson(await operatorContext(t.server.services, workspaceId), { email });
    const page = await verify(made.body.verificationUrl);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('Erwin');
    expect(page.text).toContain('Name removed at the holder’s request');
    expect(JSON.parse((await verify(made.body.verificationUrl, 'application/json')).text)).toMatchObject({
      holder: null,
      erased: true,
      valid: true,
    });
    const row = await t.server.services.db
      .selectFrom('certificates')
      .select(['first_name', 'last_name', 'email', 'erased'])
      .where('id', '=', made.body.certificateId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ first_name: null, last_name: null, email: null, erased: 1 });
  });
});

describe('through the MCP client', () => {
  it('lets an assistant issue for the whole event, list, and revoke, as an organiser would ask', async () => {
    const e = await newEvent();
    const came = await e.register(e.general, 2);
    for (const id of came) await checkIn(e, id);
    const client = await t.mcp(organiser, {}, '?toolsets=certificates');
    try {
      const all = await callTool(client, 'issue_attendance_certificates', { eventId: e.eventId });
      expect(all.isError, JSON.stringify(all.data)).toBe(false);
      expect(all.data).toEqual({ eventId: e.eventId, issued: 2, checkedIn: 2 });
      const listed = await callTool(client, 'list_certificates', { eventId: e.eventId });
      expect(listed.data.data.map((c: any) => c.attendeeId).sort()).toEqual([...came].sort());
      const [first] = listed.data.data;
      expect(first.verificationUrl).toMatch(/\/v\/[A-Za-z0-9_-]{24}$/);
      const again = await callTool(client, 'issue_certificate', {
        eventId: e.eventId,
        attendeeId: first.attendeeId,
      });
      expect(again).toMatchObject({ isError: true, data: { code: 'certificateExists' } });
      const revoked = await callTool(client, 'revoke_certificate', {
        eventId: e.eventId,
        certificateId: first.certificateId,
      });
      expect(revoked.data).toEqual({ certificateId: first.certificateId, deleted: true });
      const reissued = await callTool(client, 'issue_certificate', {
        eventId: e.eventId,
        attendeeId: first.attendeeId,
        idempotencyKey: 'mcp-reissue',
      });
      expect(reissued.isError, JSON.stringify(reissued.data)).toBe(false);
      expect(reissued.data.verificationUrl).not.toBe(first.verificationUrl);
    } finally {
      await client.close();
    }
  });
});
