// Call for speakers (issue 10, item 2: submissions with their status and status history) through
// the real HTTPS server and the MCP client: exact fields, oldest change first, the status filter,
// updatedSince, paging, the reviewers' average read from the review rows, the accepted submission
// that became a session, the detail with its history and ETag, 404s, the personal-data rule on
// each speaker, the cfp module (409 moduleOff) and scope (cfp:read), isolation between workspaces,
// the MCP tools, and erasure reaching a speaker (in the database, and seen by updatedSince).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { sampleId } from '../../db/sample/ids';
import { nextChangeSeq } from '../../db/sequence';
import { submissionStatuses } from '../../db/values';
import { expectProblem } from '../support/fixtures';
import { callTool, sampleIds, walkPages } from '../support/sales';
import { anotherWorkspace, MutableClock, startTestServer, type TestServer } from '../support/server';

const submissionFields = [
  'submissionId',
  'eventId',
  'title',
  'abstract',
  'format',
  'trackId',
  'language',
  'status',
  'speakers',
  'sessionId',
  'submittedUtc',
  'decidedUtc',
  'reviews',
  'rating',
  'updatedUtc',
];
const speakerFields = ['submissionSpeakerId', 'name', 'email', 'company', 'bio', 'erased', 'personalData'];
const sorted = (keys: string[]) => [...keys].sort();

const clock = new MutableClock();
let t: TestServer;
let workspaceId: string;
let reader: string;
let peopleReader: string;
let other: { workspaceId: string; key: string };
let summit: string;
let meetup: string;
const submission = (key: string) => sampleId(workspaceId, `submission/summit/${key}`);
const list = (query = '') => `/events/${summit}/submissions${query}`;
const db = () => t.server.services.db;

beforeAll(async () => {
  t = await startTestServer({ clock });
  ({ workspaceId } = await t.workspace('Call for speakers', true));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['cfp:read'], expires: 'never' }));
  ({ key: peopleReader } = await t.key({
    workspaceId,
    scopes: ['cfp:read', 'people:read'],
    expires: 'never',
  }));
  other = await anotherWorkspace(t);
  summit = sampleIds(workspaceId).event('summit');
  meetup = sampleIds(workspaceId).event('meetup');
});
afterAll(async () => t.close());

function stored(eventId: string) {
  return db()
    .selectFrom('submissions')
    .selectAll()
    .where('event_id', '=', eventId)
    .orderBy('change_seq')
    .execute();
}

describe('GET /events/{eventId}/submissions', () => {
  it('lists the submissions oldest change first, with exactly the documented fields', async () => {
    const { items } = await walkPages(t, peopleReader, list());
    expect(items.map((s) => s.submissionId)).toEqual((await stored(summit)).map((r) => r.id));
    expect(items.length).toBeGreaterThanOrEqual(10);
    for (const s of items) {
      expect(sorted(Object.keys(s))).toEqual(sorted(submissionFields));
      expect(s.speakers.length).toBeGreaterThan(0);
      for (const p of s.speakers) expect(sorted(Object.keys(p))).toEqual(sorted(speakerFields));
    }
  });

  it('renders each submission from its rows: speakers in order, reviews counted and averaged', async () => {
    const { items } = await walkPages(t, peopleReader, list());
    const rows = new Map((await stored(summit)).map((r) => [r.id, r]));
    for (const s of items) {
      const row = rows.get(s.submissionId)!;
      expect(s).toMatchObject({
        eventId: summit,
        title: row.title,
        abstract: row.abstract,
        format: row.format,
        trackId: row.track_id,
        language: row.language,
        status: row.status,
        sessionId: row.session_id,
        submittedUtc: row.submitted_utc,
        decidedUtc: row.decided_utc,
        updatedUtc: row.updated_utc,
      });
      const speakers = await db()
        .selectFrom('submission_speakers')
        .selectAll()
        .where('submission_id', '=', row.id)
        .orderBy('sort_order')
        .execute();
      expect(s.speakers).toEqual(
        speakers.map((p) => ({
          submissionSpeakerId: p.id,
          name: p.name,
          email: p.email,
          company: p.company,
          bio: p.bio,
          erased: p.erased === 1,
          personalData: p.erased === 1 ? 'erased' : 'included',
        })),
      );
      const scores = (
        await db()
          .selectFrom('submission_reviews')
          .select('score')
          .where('submission_id', '=', row.id)
          .execute()
      ).map((r) => r.score);
      expect(s.reviews).toBe(scores.length);
      expect(s.rating).toBe(
        scores.length ? Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 100) / 100 : null,
      );
    }
    const rated = items.find((s) => s.submissionId === submission('onboarding'))!;
    expect(rated).toMatchObject({ reviews: 4, rating: 4.25 });
    expect(items.find((s) => s.submissionId === submission('accessible'))).toMatchObject({
      reviews: 0,
      rating: null,
    });
  });

  it('holds a submission in every status, a draft unsent and decisions dated', async () => {
    const { items } = await walkPages(t, reader, list());
    expect(new Set(items.map((s) => s.status))).toEqual(new Set(submissionStatuses));
    for (const s of items) {
      expect(s.submittedUtc === null).toBe(s.status === 'draft');
      if (['accepted', 'waitlisted', 'rejected'].includes(s.status)) expect(s.decidedUtc).not.toBeNull();
      if (s.sessionId !== null) expect(s.status).toBe('accepted');
    }
  });

  it('links the accepted workshop to the session it became, given by the same speakers', async () => {
    const res = await t.api(`${list()}?status=accepted`, { key: peopleReader });
    const linked = res.body.data.filter((s: any) => s.sessionId !== null);
    expect(linked).toHaveLength(1);
    const session = await t.api(`/events/${summit}/sessions/${linked[0].sessionId}`, {
      key: (await t.key({ workspaceId, scopes: ['program:read'] })).key,
    });
    expect(session.status).toBe(200);
    expect(linked[0]).toMatchObject({
      title: session.body.title,
      format: 'workshop',
      trackId: session.body.trackId,
    });
    const speakers = await db()
      .selectFrom('speakers')
      .select(['name', 'email'])
      .where('id', 'in', session.body.speakerIds)
      .execute();
    expect(linked[0].speakers.map((p: any) => p.email).sort()).toEqual(speakers.map((p) => p.email).sort());
    expect(linked[0].speakers.length).toBeGreaterThan(1);
  });

  it('filters by status, and refuses a status it does not know', async () => {
    for (const status of submissionStatuses) {
      const { items } = await walkPages(t, reader, list(`?status=${status}`));
      const rows = (await stored(summit)).filter((r) => r.status === status);
      expect(items.map((s) => s.submissionId)).toEqual(rows.map((r) => r.id));
      expect(items.length).toBeGreaterThan(0);
    }
    expectProblem(await t.api(list('?status=accepted,rejected'), { key: reader }), 400, 'invalidRequest');
    expectProblem(await t.api(list('?status=approved'), { key: reader }), 400, 'invalidRequest');
  });

  it('pages with cursor and limit, never skipping or repeating one, and binds the cursor to the filter', async () => {
    const all = (await walkPages(t, reader, list())).items.map((s) => s.submissionId);
    const { items, pages } = await walkPages(t, reader, list('?limit=3'));
    expect(items.map((s) => s.submissionId)).toEqual(all);
    expect(pages).toBe(Math.ceil(all.length / 3));
    const first = await t.api(list('?limit=3'), { key: reader });
    const cursor = encodeURIComponent(first.body.nextCursor);
    expectProblem(
      await t.api(list(`?limit=3&status=accepted&cursor=${cursor}`), { key: reader }),
      400,
      'invalidCursor',
    );
  });

  it('answers only what changed at or after updatedSince', async () => {
    const since = clock.now().toISOString();
    clock.advance(1000);
    await db()
      .updateTable('submissions')
      .set({
        title: 'Pricing experiments, revised',
        updated_utc: clock.now().toISOString(),
        change_seq: await nextChangeSeq(db()),
      })
      .where('id', '=', submission('pricing-lab'))
      .execute();
    const res = await t.api(list(`?updatedSince=${encodeURIComponent(since)}`), { key: reader });
    expect(res.status).toBe(200);
    expect(res.body.data.map((s: any) => s.submissionId)).toEqual([submission('pricing-lab')]);
    expectProblem(await t.api(list('?updatedSince=yesterday'), { key: reader }), 400, 'invalidUpdatedSince');
  });
});

describe('the personal-data rule on speakers', () => {
  it('withholds every speaker detail without people:read', async () => {
    const { items } = await walkPages(t, reader, list());
    for (const s of items)
      for (const p of s.speakers) {
        expect(p).toMatchObject({ name: null, email: null, company: null, bio: null });
        expect(p.personalData).toBe(p.erased ? 'erased' : 'withheld');
      }
  });

  it('shows a speaker who erased their data as erased, even with people:read, beside a co-speaker', async () => {
    const res = await t.api(`${list()}/${submission('research-ops')}`, { key: peopleReader });
    expect(res.body.speakers).toHaveLength(2);
    expect(res.body.speakers[0]).toMatchObject({
      name: 'Karin Aune',
      erased: false,
      personalData: 'included',
    });
    expect(res.body.speakers[1]).toEqual({
      submissionSpeakerId: sampleId(workspaceId, 'submission/summit/research-ops/speaker/1'),
      name: null,
      email: null,
      company: null,
      bio: null,
      erased: true,
      personalData: 'erased',
    });
  });
});

describe('GET /events/{eventId}/submissions/{submissionId}', () => {
  it('answers the submission with its history in order, with an ETag and 304 to If-None-Match', async () => {
    const path = `${list()}/${submission('one-metric')}`;
    const res = await t.api(path, { key: peopleReader });
    expect(res.status).toBe(200);
    expect(sorted(Object.keys(res.body))).toEqual(sorted([...submissionFields, 'history']));
    const listed = (await walkPages(t, peopleReader, list())).items.find(
      (s) => s.submissionId === submission('one-metric'),
    );
    const { history, ...rest } = res.body;
    expect(rest).toEqual(listed);
    const changes = await db()
      .selectFrom('submission_status_changes')
      .select(['status', 'at_utc'])
      .where('submission_id', '=', submission('one-metric'))
      .orderBy('id')
      .execute();
    expect(history).toEqual(changes.map((c) => ({ status: c.status, atUtc: c.at_utc })));
    expect(history.map((h: any) => h.status)).toEqual(['submitted', 'underReview', 'waitlisted', 'accepted']);
    const times = history.map((h: any) => h.atUtc);
    expect([...times].sort()).toEqual(times);
    expect(res.body.decidedUtc).toBe(times.at(-1));
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    const again = await t.api(path, { key: peopleReader, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    // What a key may see is part of the representation: another tag without people:read.
    expect((await t.api(path, { key: reader })).headers.get('etag')).not.toBe(etag);
  });

  it('ends every history with the status the submission has now', async () => {
    for (const row of await stored(summit)) {
      const res = await t.api(`${list()}/${row.id}`, { key: reader });
      expect(res.body.history.at(-1).status).toBe(row.status);
      expect(res.body.history[0].atUtc).toBe(row.created_utc);
    }
  });

  it('answers 404 notFound for a submission of another event or of nowhere', async () => {
    const past = sampleIds(workspaceId).event('past');
    const ofSummit = submission('onboarding');
    expectProblem(await t.api(`/events/${past}/submissions/${ofSummit}`, { key: reader }), 404, 'notFound');
    expectProblem(await t.api(`${list()}/${sampleId('nowhere', 'x')}`, { key: reader }), 404, 'notFound');
    expectProblem(await t.api(`${list()}/not-a-uuid`, { key: reader }), 400, 'invalidRequest');
  });
});

describe('refusals', () => {
  it('answers 409 moduleOff naming cfp at the meetup, whose call for speakers is switched off', async () => {
    const listed = expectProblem(
      await t.api(`/events/${meetup}/submissions`, { key: reader }),
      409,
      'moduleOff',
    );
    expect(listed.module).toBe('cfp');
    const one = submission('onboarding');
    expect(
      expectProblem(await t.api(`/events/${meetup}/submissions/${one}`, { key: reader }), 409, 'moduleOff')
        .module,
    ).toBe('cfp');
  });

  it('keeps the submissions while the module is off, and gives them back when it is switched on', async () => {
    const { workspaceId: w } = await t.workspace('Cfp module', true);
    const { key } = await t.key({ workspaceId: w, preset: 'everything', expires: 'never' });
    const eventId = sampleIds(w).event('summit');
    const before = (await t.api(`/events/${eventId}/submissions`, { key })).body.data;
    const module = (cfp: boolean) =>
      t.api(`/events/${eventId}`, { key, method: 'PATCH', body: { modules: { cfp } } });
    expect((await module(false)).status).toBe(200);
    expectProblem(await t.api(`/events/${eventId}/submissions`, { key }), 409, 'moduleOff');
    expect((await module(true)).status).toBe(200);
    expect((await t.api(`/events/${eventId}/submissions`, { key })).body.data).toEqual(before);
  });

  it('needs cfp:read', async () => {
    const { key } = await t.key({ workspaceId, scopes: ['events:read', 'program:read', 'people:read'] });
    const body = expectProblem(await t.api(list(), { key }), 403, 'missingScope');
    expect(body.scope).toBe('cfp:read');
    expect(
      expectProblem(await t.api(`${list()}/${submission('onboarding')}`, { key }), 403, 'missingScope').scope,
    ).toBe('cfp:read');
  });

  it("answers 404 for another workspace's event and submission", async () => {
    const theirSummit = sampleIds(other.workspaceId).event('summit');
    expectProblem(await t.api(`/events/${theirSummit}/submissions`, { key: reader }), 404, 'eventNotFound');
    const theirs = sampleId(other.workspaceId, 'submission/summit/onboarding');
    expectProblem(
      await t.api(`/events/${theirSummit}/submissions/${theirs}`, { key: reader }),
      404,
      'eventNotFound',
    );
    expectProblem(await t.api(`${list()}/${theirs}`, { key: reader }), 404, 'notFound');
  });
});

describe('through MCP', () => {
  it('lists and gets submissions with the same answers as REST, as read-only tools', async () => {
    const client = await t.mcp(peopleReader, {}, '?toolsets=cfp');
    try {
      const listed = await callTool(client, 'list_submissions', { eventId: summit, status: 'underReview' });
      expect(listed.isError).toBe(false);
      const rest = await t.api(list('?status=underReview'), { key: peopleReader });
      expect(listed.data).toEqual(rest.body);
      const one = await callTool(client, 'get_submission', {
        eventId: summit,
        submissionId: submission('ai-trust'),
      });
      expect(one.data).toEqual(
        (await t.api(`${list()}/${submission('ai-trust')}`, { key: peopleReader })).body,
      );
      expect(one.data.history.map((h: any) => h.status)).toEqual(['submitted', 'underReview', 'waitlisted']);
      const off = await callTool(client, 'list_submissions', { eventId: meetup });
      expect(off).toMatchObject({ isError: true, data: { code: 'moduleOff', module: 'cfp' } });
      const missing = await callTool(client, 'get_submission', {
        eventId: summit,
        submissionId: sampleId('x', 'y'),
      });
      expect(missing).toMatchObject({ isError: true, data: { code: 'notFound' } });
      const tools = (await client.listTools()).tools.filter((x) => x.name.includes('submission'));
      expect(tools.map((x) => x.name).sort()).toEqual([
        'get_submission',
        'list_submission_reviews',
        'list_submissions',
      ]);
      for (const x of tools) expect(x.annotations?.readOnlyHint).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('erasure', () => {
  it("reaches a speaker's details on their submissions, and the submission shows the change", async () => {
    const email = 'nora.berg@example.com';
    const before = await db()
      .selectFrom('submission_speakers')
      .select(['id', 'submission_id'])
      .where('workspace_id', '=', workspaceId)
      .where('email', '=', email)
      .execute();
    expect(before).toHaveLength(1);
    const since = clock.now().toISOString();
    clock.advance(1000);
    const counts = await erasePerson(await operatorContext(t.server.services, workspaceId), { email });
    expect(counts.submissionSpeakers).toBe(1);
    const row = await db()
      .selectFrom('submission_speakers')
      .selectAll()
      .where('id', '=', before[0]!.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: null, email: null, company: null, bio: null, erased: 1 });
    // The co-speaker keeps their details.
    const changed = await t.api(list(`?updatedSince=${encodeURIComponent(since)}`), { key: peopleReader });
    expect(changed.body.data.map((s: any) => s.submissionId)).toEqual([submission('onboarding')]);
    const [erased, coSpeaker] = changed.body.data[0].speakers;
    expect(erased).toMatchObject({ name: null, erased: true, personalData: 'erased' });
    expect(coSpeaker).toMatchObject({ name: 'Emil Strand', erased: false, personalData: 'included' });
    // Another workspace's speaker with the same address is not touched.
    const theirs = await db()
      .selectFrom('submission_speakers')
      .select('erased')
      .where('workspace_id', '=', other.workspaceId)
      .where('email', '=', email)
      .execute();
    expect(theirs).toEqual([{ erased: 0 }]);
  });
});
