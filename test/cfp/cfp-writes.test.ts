// The call for speakers run over HTTPS (issue 26, item 1): the call opened, closed and changed
// (If-Match), a speaker-facing site (submissions:write) sending, changing and withdrawing inside
// the window with what the call offers, the organiser (cfp:write) at any time; reviews, one per
// reviewer and changeable, listed under the personal-data rule; status moves by the transition
// table with their history; accepting into a draft session (hidden from the public page until
// published, speakers matched by email), a withdrawn or rejected one never reaching the programme.
// Also the scopes, the module, the demonstration workspace, idempotent creates, strict bodies,
// updatedSince on the review list, and erasure of a reviewer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { sampleId } from '../../db/sample/ids';
import { expectProblem } from '../support/fixtures';
import { sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let organiser: string;
let site: string;
let reader: string;
let peopleReader: string;
let summit: string;
let meetup: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Call for speakers writes', true));
  ({ key: organiser } = await t.key({ workspaceId, scopes: ['cfp:write', 'people:read'], expires: 'never' }));
  ({ key: site } = await t.key({ workspaceId, scopes: ['submissions:write'], expires: 'never' }));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['cfp:read'], expires: 'never' }));
  ({ key: peopleReader } = await t.key({
    workspaceId,
    scopes: ['cfp:read', 'people:read', 'program:read'],
    expires: 'never',
  }));
  summit = sampleIds(workspaceId).event('summit');
  meetup = sampleIds(workspaceId).event('meetup');
});
afterAll(async () => t?.close());

const db = () => t.server.services.db;
const track = (key: string) => sampleId(workspaceId, `track/summit/${key}`);
const callPath = (eventId = summit) => `/events/${eventId}/call-for-speakers`;
const subsPath = (eventId = summit) => `/events/${eventId}/submissions`;
const hours = (n: number) => new Date(Date.now() + n * 3_600_000).toISOString();

let people = 0;
function proposal(extra: Record<string, unknown> = {}) {
  people += 1;
  return {
    title: `Shipping on Fridays ${people}`,
    abstract: 'Why small releases are calmer.',
    format: 'talk',
    trackId: track('engineering'),
    language: 'en',
    speakers: [
      { name: `Speaker ${people}`, email: `speaker.${people}.${Date.now()}@example.org`, company: 'Acme' },
    ],
    ...extra,
  };
}

async function setCall(body: Record<string, unknown>) {
  const res = await t.api(callPath(), { key: organiser, method: 'PATCH', body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
}
const openCall = () =>
  setCall({
    opensUtc: hours(-1),
    closesUtc: hours(48),
    formats: ['talk', 'workshop'],
    trackIds: [track('engineering'), track('design')],
  });

async function send(
  key: string,
  body: Record<string, unknown> = proposal(),
  headers: Record<string, string> = {},
) {
  return t.api(subsPath(), { key, method: 'POST', body, headers });
}
async function sent(key = site, body: Record<string, unknown> = proposal()) {
  const res = await send(key, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
const move = (submissionId: string, body: Record<string, unknown>, key = organiser) =>
  t.api(`${subsPath()}/${submissionId}/status`, { key, method: 'PUT', body });
const review = (submissionId: string, body: Record<string, unknown>, key = organiser) =>
  t.api(`${subsPath()}/${submissionId}/review`, { key, method: 'PUT', body });

describe('the call itself', () => {
  it('starts closed where it was never set, offering every format and no track, with no update time', async () => {
    const forum = sampleIds(workspaceId).event('forum');
    const res = await t.api(`/events/${forum}/call-for-speakers`, { key: reader });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeTruthy();
    expect(res.body).toEqual({
      eventId: forum,
      opensUtc: null,
      closesUtc: null,
      opensLocal: null,
      closesLocal: null,
      open: false,
      formats: ['talk', 'workshop', 'lightning', 'panel'],
      trackIds: [],
      updatedUtc: null,
    });
  });

  it("shows the sample summit's call open, with its window and every track", async () => {
    const res = await t.api(callPath(), { key: reader });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ eventId: summit, open: true });
    expect(res.body.trackIds).toContain(track('engineering'));
    expect(Date.parse(res.body.closesUtc)).toBeGreaterThan(Date.now());
  });

  it('opens by its window (venue time or UTC), says it is open, and closes when closesUtc is now', async () => {
    const before = await t.api(callPath(), { key: organiser });
    const opened = await t.api(callPath(), {
      key: organiser,
      method: 'PATCH',
      body: { opensLocal: '2020-01-01T09:00', closesUtc: '2099-01-01T00:00:00.000Z', formats: ['talk'] },
      headers: { 'if-match': before.headers.get('etag')! },
    });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body).toMatchObject({
      opensUtc: '2020-01-01T08:00:00.000Z',
      opensLocal: '2020-01-01T09:00',
      closesLocal: '2099-01-01T01:00',
      open: true,
      formats: ['talk'],
    });
    expect(opened.body.updatedUtc).toEqual(expect.any(String));
    const stale = await t.api(callPath(), {
      key: organiser,
      method: 'PATCH',
      body: { formats: ['panel'] },
      headers: { 'if-match': before.headers.get('etag')! },
    });
    expectProblem(stale, 412, 'preconditionFailed');
    const closed = await setCall({ closesUtc: new Date().toISOString() });
    expect(closed.body.open).toBe(false);
    expect((await t.api(callPath(), { key: reader })).body).toEqual(closed.body);
  });

  it('names every bad field: a close before the open, a track of no event, a format twice, unknown fields', async () => {
    const res = await t.api(callPath(), {
      key: organiser,
      method: 'PATCH',
      body: {
        opensUtc: '2030-01-02T00:00:00Z',
        closesUtc: '2030-01-01T00:00:00Z',
        formats: ['talk', 'talk'],
        trackIds: ['00000000-0000-4000-8000-000000000000'],
      },
    });
    const fields = expectProblem(res, 400, 'invalidRequest').errors.map((e: any) => e.field);
    expect(fields.sort()).toEqual(['closesUtc', 'formats.1', 'trackIds.0']);
    const unknown = await t.api(callPath(), { key: organiser, method: 'PATCH', body: { open: true } });
    expect(expectProblem(unknown, 400, 'invalidRequest').errors[0].field).toBe('open');
    expectProblem(
      await t.api(callPath(), { key: organiser, method: 'PATCH', body: { formats: [] } }),
      400,
      'invalidRequest',
    );
  });
});

describe('submissions from a speaker-facing site and the organiser', () => {
  it('refuses a site outside the window (409 callClosed), and lets the organiser add an invited talk', async () => {
    await setCall({ opensUtc: hours(24), closesUtc: hours(48) });
    const early = expectProblem(await send(site), 409, 'callClosed');
    expect(early.detail).toContain('opens at');
    await setCall({ opensUtc: hours(-48), closesUtc: hours(-1) });
    expect(expectProblem(await send(site), 409, 'callClosed').detail).toContain('closed at');
    const invited = await sent(organiser, proposal({ format: 'panel', trackId: track('strategy') }));
    expect(invited).toMatchObject({ status: 'submitted', format: 'panel', trackId: track('strategy') });
  });

  it('sends one inside the window: 201, submitted, history, speakers in order, withheld from the site', async () => {
    await openCall();
    const body = proposal({
      speakers: [
        { name: 'Ada Lovelace', email: 'Ada.Lovelace@Example.org', bio: 'Engines.' },
        { name: 'Charles Babbage', email: 'charles@example.org' },
      ],
    });
    const res = await send(site, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('etag')).toBeTruthy();
    expect(res.body).toMatchObject({
      title: body.title,
      format: 'talk',
      trackId: track('engineering'),
      language: 'en',
      status: 'submitted',
      sessionId: null,
      decidedUtc: null,
      reviews: 0,
      rating: null,
      history: [{ status: 'submitted', atUtc: res.body.submittedUtc }],
    });
    // The site reads nothing: its own answer follows the personal-data rule.
    expect(res.body.speakers.map((s: any) => [s.name, s.personalData])).toEqual([
      [null, 'withheld'],
      [null, 'withheld'],
    ]);
    const read = await t.api(`${subsPath()}/${res.body.submissionId}`, { key: peopleReader });
    expect(read.body.speakers.map((s: any) => [s.name, s.email])).toEqual([
      ['Ada Lovelace', 'ada.lovelace@example.org'],
      ['Charles Babbage', 'charles@example.org'],
    ]);
  });

  it('refuses a format or a track the call does not offer, naming the field (the organiser may)', async () => {
    await openCall();
    const res = await send(site, proposal({ format: 'panel', trackId: track('strategy') }));
    expect(
      expectProblem(res, 400, 'invalidRequest')
        .errors.map((e: any) => e.field)
        .sort(),
    ).toEqual(['format', 'trackId']);
    await sent(organiser, proposal({ format: 'lightning', trackId: track('strategy') }));
  });

  it('needs at least one speaker, a title, an abstract and a language; unknown fields refused', async () => {
    await openCall();
    const res = await send(site, proposal({ speakers: [], title: '', language: 'English' }));
    expect(
      expectProblem(res, 400, 'invalidRequest')
        .errors.map((e: any) => e.field)
        .sort(),
    ).toEqual(['language', 'speakers', 'title']);
    const bad = await send(site, proposal({ speakers: [{ name: 'X', email: 'nope', phone: '1' }] }));
    expect(expectProblem(bad, 400, 'invalidRequest').errors.map((e: any) => e.field)).toEqual(
      expect.arrayContaining(['speakers.0.email']),
    );
    expectProblem(await send(site, proposal({ status: 'accepted' })), 400, 'invalidRequest');
  });

  it('replays an idempotent create: the same 201 answer, one submission', async () => {
    await openCall();
    const body = proposal();
    const headers = { 'idempotency-key': `cfp-${Math.random()}` };
    const first = await send(site, body, headers);
    const again = await send(site, body, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const rows = await db().selectFrom('submissions').select('id').where('title', '=', body.title).execute();
    expect(rows).toHaveLength(1);
  });

  it('changes one while undecided (If-Match, speakers replaced), never once decided', async () => {
    await openCall();
    const made = await send(site);
    const path = `${subsPath()}/${made.body.submissionId}`;
    const changed = await t.api(path, {
      key: site,
      method: 'PATCH',
      body: {
        title: 'A better title',
        format: 'workshop',
        speakers: [{ name: 'Bo', email: 'bo@example.org' }],
      },
      headers: { 'if-match': made.headers.get('etag')! },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ title: 'A better title', format: 'workshop' });
    expect(changed.body.speakers).toHaveLength(1);
    const stale = await t.api(path, {
      key: site,
      method: 'PATCH',
      body: { title: 'Later' },
      headers: { 'if-match': made.headers.get('etag')! },
    });
    expectProblem(stale, 412, 'preconditionFailed');
    expectProblem(
      await t.api(path, { key: site, method: 'PATCH', body: { format: 'panel' } }),
      400,
      'invalidRequest',
    );
    expect((await move(made.body.submissionId, { status: 'underReview' })).status).toBe(200);
    expect((await t.api(path, { key: site, method: 'PATCH', body: { title: 'Still open' } })).status).toBe(
      200,
    );
    expect((await move(made.body.submissionId, { status: 'rejected' })).status).toBe(200);
    const late = await t.api(path, { key: site, method: 'PATCH', body: { title: 'Too late' } });
    expect(expectProblem(late, 409, 'statusNotAllowed').currentStatus).toBe('rejected');
  });

  it('withdraws (again: the same answer), and a rejected one cannot be withdrawn', async () => {
    await openCall();
    const made = await sent();
    const path = `${subsPath()}/${made.submissionId}/withdraw`;
    const withdrawn = await t.api(path, { key: site, method: 'POST', body: {} });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    expect(withdrawn.body.status).toBe('withdrawn');
    expect(withdrawn.body.history.map((h: any) => h.status)).toEqual(['submitted', 'withdrawn']);
    const again = await t.api(path, { key: site, method: 'POST', body: {} });
    expect(again.body).toEqual(withdrawn.body);
    const other = await sent();
    await move(other.submissionId, { status: 'underReview' });
    await move(other.submissionId, { status: 'rejected' });
    const refused = await t.api(`${subsPath()}/${other.submissionId}/withdraw`, {
      key: site,
      method: 'POST',
      body: {},
    });
    expect(expectProblem(refused, 409, 'statusNotAllowed').currentStatus).toBe('rejected');
  });

  it('gives the site no reads and no organiser writes', async () => {
    const made = await sent(organiser);
    for (const [path, method] of [
      [subsPath(), 'GET'],
      [`${subsPath()}/${made.submissionId}`, 'GET'],
      [callPath(), 'GET'],
      [`${subsPath()}/${made.submissionId}/reviews`, 'GET'],
    ] as const)
      expect(expectProblem(await t.api(path, { key: site, method }), 403, 'missingScope').scope).toBe(
        'cfp:read',
      );
    expect(
      expectProblem(await move(made.submissionId, { status: 'underReview' }, site), 403, 'missingScope')
        .scope,
    ).toBe('cfp:write');
    expect(
      expectProblem(
        await review(made.submissionId, { reviewer: 'r@example.org', score: 3 }, site),
        403,
        'missingScope',
      ).scope,
    ).toBe('cfp:write');
    expect(expectProblem(await send(reader), 403, 'missingScope').scope).toBe('submissions:write');
  });
});

describe('status moves', () => {
  it('follows the transition table, keeping the history and dating the decision', async () => {
    const made = await sent(organiser);
    const skipped = await move(made.submissionId, { status: 'accepted' });
    const problem = expectProblem(skipped, 409, 'statusNotAllowed');
    expect(problem).toMatchObject({
      currentStatus: 'submitted',
      allowedStatuses: ['underReview', 'withdrawn'],
    });
    expect((await move(made.submissionId, { status: 'underReview' })).body.status).toBe('underReview');
    const waitlisted = (await move(made.submissionId, { status: 'waitlisted' })).body;
    expect(waitlisted.decidedUtc).toEqual(expect.any(String));
    const accepted = await move(made.submissionId, { status: 'accepted' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.history.map((h: any) => h.status)).toEqual([
      'submitted',
      'underReview',
      'waitlisted',
      'accepted',
    ]);
    expect(accepted.body.decidedUtc >= waitlisted.decidedUtc).toBe(true);
    expect(accepted.body.sessionId).toBeNull();
    expectProblem(await move(made.submissionId, { status: 'rejected' }), 409, 'statusNotAllowed');
    expectProblem(await move(made.submissionId, { status: 'draft' }), 400, 'invalidRequest');
  });

  it('never accepts a withdrawn or rejected one into the programme', async () => {
    const session = { startsLocal: '2026-09-10T16:00', endsLocal: '2026-09-10T16:30' };
    const withdrawn = await sent(organiser);
    await move(withdrawn.submissionId, { status: 'withdrawn' });
    const rejected = await sent(organiser);
    await move(rejected.submissionId, { status: 'underReview' });
    await move(rejected.submissionId, { status: 'rejected' });
    const sessionsBefore = (
      await db().selectFrom('sessions').select('id').where('event_id', '=', summit).execute()
    ).length;
    for (const s of [withdrawn, rejected]) {
      const res = await move(s.submissionId, { status: 'accepted', session });
      expect(expectProblem(res, 409, 'statusNotAllowed').currentStatus).toBe(
        s === withdrawn ? 'withdrawn' : 'rejected',
      );
    }
    const sessionsAfter = (
      await db().selectFrom('sessions').select('id').where('event_id', '=', summit).execute()
    ).length;
    expect(sessionsAfter).toBe(sessionsBefore);
  });

  it('asks a session only of an acceptance, and names a bad time in it', async () => {
    const made = await sent(organiser);
    const res = await move(made.submissionId, {
      status: 'underReview',
      session: { startsLocal: '2026-09-10T16:00', endsLocal: '2026-09-10T15:00' },
    });
    expect(
      expectProblem(res, 400, 'invalidRequest')
        .errors.map((e: any) => e.field)
        .sort(),
    ).toEqual(['session', 'session.endsUtc']);
  });
});

describe('accepting into a draft session', () => {
  async function slug() {
    return (await db().selectFrom('events').select('slug').where('id', '=', summit).executeTakeFirstOrThrow())
      .slug;
  }

  it('makes a draft session with its speakers (matched by email), hidden from the public page until published', async () => {
    const known = await db()
      .selectFrom('speakers')
      .select(['id', 'email'])
      .where('event_id', '=', summit)
      .where('email', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const made = await sent(
      organiser,
      proposal({
        title: 'Calm releases, a panel',
        format: 'panel',
        speakers: [
          { name: 'Someone already speaking', email: known.email!.toUpperCase() },
          { name: 'Nadia New', email: `nadia.${Date.now()}@example.org`, company: 'Fjord', bio: 'Ships.' },
        ],
      }),
    );
    await move(made.submissionId, { status: 'underReview' });
    const accepted = await move(made.submissionId, {
      status: 'accepted',
      session: { startsLocal: '2026-09-11T17:00', endsLocal: '2026-09-11T17:45' },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const sessionId = accepted.body.sessionId;
    expect(sessionId).toEqual(expect.any(String));
    const session = await t.api(`/events/${summit}/sessions/${sessionId}`, { key: peopleReader });
    expect(session.body).toMatchObject({
      title: 'Calm releases, a panel',
      kind: 'panel',
      trackId: track('engineering'),
      startsLocal: '2026-09-11T17:00',
      draft: true,
    });
    expect(session.body.speakerIds[0]).toBe(known.id);
    const newcomer = await db()
      .selectFrom('speakers')
      .selectAll()
      .where('id', '=', session.body.speakerIds[1])
      .executeTakeFirstOrThrow();
    expect(newcomer).toMatchObject({ name: 'Nadia New', company: 'Fjord', bio: 'Ships.', event_id: summit });

    const page = async () => (await t.api(`//e/${await slug()}`)).body as string;
    expect(await page()).not.toContain('Calm releases, a panel');
    const published = await t.api(`/events/${summit}/sessions/${sessionId}`, {
      key: (await t.key({ workspaceId, scopes: ['program:write'], expires: 'never' })).key,
      method: 'PATCH',
      body: { draft: false },
    });
    expect(published.body.draft).toBe(false);
    expect(await page()).toContain('Calm releases, a panel');

    // Published: withdrawing is refused, naming the session, until it is unpublished.
    const refused = await t.api(`${subsPath()}/${made.submissionId}/withdraw`, {
      key: site,
      method: 'POST',
      body: {},
    });
    expect(expectProblem(refused, 409, 'sessionPublished').sessionId).toBe(sessionId);
  });

  it('removes the draft session when the accepted submission is withdrawn', async () => {
    const made = await sent(organiser);
    await move(made.submissionId, { status: 'underReview' });
    const accepted = await move(made.submissionId, {
      status: 'accepted',
      session: { startsUtc: '2026-09-11T06:00:00Z', endsUtc: '2026-09-11T06:30:00Z' },
    });
    const sessionId = accepted.body.sessionId;
    const withdrawn = await t.api(`${subsPath()}/${made.submissionId}/withdraw`, {
      key: site,
      method: 'POST',
      body: {},
    });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    expect(withdrawn.body).toMatchObject({ status: 'withdrawn', sessionId: null });
    expect(
      await db().selectFrom('sessions').select('id').where('id', '=', sessionId).executeTakeFirst(),
    ).toBeUndefined();
  });
});

describe('reviews', () => {
  it('keeps one review per reviewer, changeable; counts them into the rating; lists them', async () => {
    const made = await sent(organiser);
    const first = await review(made.submissionId, {
      reviewer: 'Rita@Example.org',
      score: 2,
      comment: 'Thin.',
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      reviewer: 'rita@example.org',
      score: 2,
      comment: 'Thin.',
      personalData: 'included',
    });
    const since = first.body.updatedUtc;
    const changed = await review(made.submissionId, { reviewer: 'rita@example.org', score: 4 });
    expect(changed.body).toMatchObject({ reviewId: first.body.reviewId, score: 4, comment: null });
    await review(made.submissionId, { reviewer: 'sam@example.org', score: 5, comment: 'Yes.' });
    const read = await t.api(`${subsPath()}/${made.submissionId}`, { key: reader });
    expect(read.body).toMatchObject({ reviews: 2, rating: 4.5 });
    const listed = await t.api(`${subsPath()}/${made.submissionId}/reviews`, { key: peopleReader });
    expect(listed.body.data.map((r: any) => [r.reviewer, r.score])).toEqual([
      ['rita@example.org', 4],
      ['sam@example.org', 5],
    ]);
    const withheld = await t.api(`${subsPath()}/${made.submissionId}/reviews`, { key: reader });
    expect(withheld.body.data.map((r: any) => [r.reviewer, r.personalData])).toEqual([
      [null, 'withheld'],
      [null, 'withheld'],
    ]);
    const later = await t.api(`${subsPath()}/${made.submissionId}/reviews?updatedSince=${since}`, {
      key: reader,
    });
    expect(later.body.data).toHaveLength(2);
    const none = await t.api(`${subsPath()}/${made.submissionId}/reviews?updatedSince=2999-01-01T00:00:00Z`, {
      key: reader,
    });
    expect(none.body.data).toEqual([]);
    const paged = await t.api(`${subsPath()}/${made.submissionId}/reviews?limit=1`, { key: reader });
    const next = await t.api(
      `${subsPath()}/${made.submissionId}/reviews?limit=1&cursor=${paged.body.nextCursor}`,
      {
        key: reader,
      },
    );
    expect([...paged.body.data, ...next.body.data].map((r: any) => r.reviewId)).toEqual(
      withheld.body.data.map((r: any) => r.reviewId),
    );
  });

  it('reviews only while submitted or underReview; a score outside 1-5 is refused', async () => {
    const made = await sent(organiser);
    expectProblem(
      await review(made.submissionId, { reviewer: 'x@example.org', score: 6 }),
      400,
      'invalidRequest',
    );
    await move(made.submissionId, { status: 'underReview' });
    expect((await review(made.submissionId, { reviewer: 'x@example.org', score: 3 })).status).toBe(200);
    await move(made.submissionId, { status: 'accepted' });
    const late = await review(made.submissionId, { reviewer: 'x@example.org', score: 1 });
    expect(expectProblem(late, 409, 'statusNotAllowed').currentStatus).toBe('accepted');
  });

  it('erases a reviewer: their address goes, their score still counts', async () => {
    const made = await sent(organiser);
    const email = `erased.reviewer.${Date.now()}@example.org`;
    await review(made.submissionId, { reviewer: email, score: 1 });
    await erasePerson(await operatorContext(t.server.services, workspaceId), { email });
    const rows = await db()
      .selectFrom('submission_reviews')
      .selectAll()
      .where('submission_id', '=', made.submissionId)
      .execute();
    expect(rows.map((r) => [r.reviewer_email, r.erased, r.score])).toEqual([[null, 1, 1]]);
    const listed = await t.api(`${subsPath()}/${made.submissionId}/reviews`, { key: peopleReader });
    expect(listed.body.data[0]).toMatchObject({ reviewer: null, erased: true, personalData: 'erased' });
    expect((await t.api(`${subsPath()}/${made.submissionId}`, { key: reader })).body.reviews).toBe(1);
  });
});

describe('modules and the demonstration workspace', () => {
  it('answers 409 moduleOff at the meetup, whose call for speakers is switched off', async () => {
    expect(expectProblem(await t.api(callPath(meetup), { key: organiser }), 409, 'moduleOff').module).toBe(
      'cfp',
    );
    const res = await t.api(subsPath(meetup), { key: site, method: 'POST', body: proposal() });
    expect(expectProblem(res, 409, 'moduleOff').module).toBe('cfp');
  });

  it('refuses the demonstration workspace (403 demoWorkspace)', async () => {
    const demo = t.server.demoKey;
    const events = (await t.api('/events', { key: demo })).body.data;
    const event = events.find((e: any) => e.modules?.cfp !== false)?.eventId ?? events[0].eventId;
    expectProblem(
      await t.api(callPath(event), { key: demo, method: 'PATCH', body: { formats: ['talk'] } }),
      403,
      'demoWorkspace',
    );
    expectProblem(
      await t.api(subsPath(event), { key: demo, method: 'POST', body: proposal() }),
      403,
      'demoWorkspace',
    );
  });
});
