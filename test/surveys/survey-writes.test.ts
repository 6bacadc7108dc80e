// Surveys and session ratings run live over HTTPS (issue 25, item 5): surveys created, changed
// (If-Match, questions people answered kept), opened and closed, removed with their answers; answers
// and ratings given by an attendee once each (also when sent at the same moment), checked against
// the questions with every bad answer named, never shown with who gave them, feedback.given sent in
// the same transaction; erasure cuts the link and leaves the results as they were. Also the API's
// rules: demo refusal, moduleOff, missingScope, idempotent replay, strict bodies, updatedSince.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erasePerson } from '../../core/admin/erase-person';
import { operatorContext } from '../../core/admin/operator';
import { expectProblem } from '../support/fixtures';
import { outbox, person, register, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let key: string;
let reader: string;
let summit: string;
let sessionId: string;

const questions = [
  { id: 'overall', kind: 'rating', label: { en: 'How was it?' } },
  { id: 'recommend', kind: 'scale', label: { en: 'Would you recommend it?' } },
  {
    id: 'heard',
    kind: 'choice',
    label: { en: 'Where did you hear of it?' },
    options: [
      { value: 'social', label: { en: 'Social media' } },
      { value: 'friend', label: { en: 'A friend' } },
    ],
  },
  {
    id: 'topics',
    kind: 'multipleChoice',
    label: { en: 'Topics you liked' },
    options: [
      { value: 'ai', label: { en: 'AI' } },
      { value: 'web', label: { en: 'The web' } },
      { value: 'ops', label: { en: 'Operations' } },
    ],
  },
  { id: 'again', kind: 'yesNo', label: { en: 'Will you come again?' } },
  { id: 'comments', kind: 'text', label: { en: 'Anything else?' } },
];

const goodAnswers = {
  overall: 4,
  recommend: 9,
  heard: 'friend',
  topics: ['ai', 'ops'],
  again: true,
  comments: 'Lovely.',
};

const db = () => t.server.services.db;
const hourFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Survey writes', true));
  ({ key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' }));
  ({ key: reader } = await t.key({ workspaceId, scopes: ['surveys:read'], expires: 'never' }));
  summit = sampleIds(workspaceId).event('summit');
  sessionId = (await t.api(`/events/${summit}/sessions`, { key })).body.data[0].sessionId;
});
afterAll(async () => t.close());

async function createSurvey(body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return t.api(`/events/${summit}/surveys`, {
    key,
    method: 'POST',
    body: { title: { en: 'Day one', nb: 'Dag én' }, questions, ...body },
    headers,
  });
}

async function newSurvey(body: Record<string, unknown> = {}): Promise<string> {
  const res = await createSurvey(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.surveyId;
}

async function newAttendee(eventId = summit): Promise<{ attendeeId: string; email: string }> {
  const someone = person(sampleIds(workspaceId).ticketType('summit', 'standard'));
  const res = await register(t, key, eventId, [someone]);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { attendeeId: res.body.attendees[0].attendeeId, email: someone.email as string };
}

const answer = (surveyId: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.api(`/events/${summit}/surveys/${surveyId}/answers`, { key, method: 'POST', body, headers });

const rate = (body: Record<string, unknown>, session = sessionId) =>
  t.api(`/events/${summit}/sessions/${session}/ratings`, { key, method: 'POST', body });

const results = async (surveyId: string) =>
  (await t.api(`/events/${summit}/surveys/${surveyId}/results`, { key: reader })).body;

describe('POST /events/{eventId}/surveys', () => {
  it('creates a survey with every kind of question, answering the Survey shape with an ETag', async () => {
    const res = await createSurvey({ opensUtc: '2026-01-01T10:00:00+01:00' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('etag')).toMatch(/^(W\/)?"/);
    expect(res.body).toMatchObject({
      eventId: summit,
      title: { en: 'Day one', nb: 'Dag én' },
      questions,
      opensUtc: '2026-01-01T09:00:00.000Z',
      closesUtc: null,
      responses: 0,
    });
    const listed = (await t.api(`/events/${summit}/surveys`, { key: reader })).body.data;
    expect(listed.find((s: any) => s.surveyId === res.body.surveyId)).toEqual(res.body);
  });

  it('replays the first answer for the same Idempotency-Key, making one survey', async () => {
    const headers = { 'idempotency-key': `survey-${Math.random()}` };
    const first = await createSurvey({}, headers);
    const again = await createSurvey({}, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.surveyId).toBe(first.body.surveyId);
  });

  it('names every bad field: blank title, twice the same id, options on a rating, a choice of one, a window closing first', async () => {
    const res = await t.api(`/events/${summit}/surveys`, {
      key,
      method: 'POST',
      body: {
        title: {},
        questions: [
          { id: 'a', kind: 'rating', label: { en: 'A' }, options: [{ value: 'x', label: { en: 'X' } }] },
          { id: 'a', kind: 'choice', label: { en: 'B' }, options: [{ value: 'x', label: { en: 'X' } }] },
          { id: 'c', kind: 'stars', label: { en: 'C' } },
        ],
        opensUtc: '2027-01-02T00:00:00Z',
        closesUtc: '2027-01-01T00:00:00Z',
      },
    });
    const fields = expectProblem(res, 400, 'invalidRequest').errors.map((e: any) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        'title',
        'questions.0.options',
        'questions.1.id',
        'questions.1.options',
        'questions.2.kind',
      ]),
    );
    const window = await createSurvey({
      opensUtc: '2027-01-02T00:00:00Z',
      closesUtc: '2027-01-01T00:00:00Z',
    });
    expect(expectProblem(window, 400, 'invalidRequest').errors).toEqual([
      { field: 'closesUtc', message: 'It must close after it opens.' },
    ]);
  });

  it('refuses a field it does not know, at any depth (strict body)', async () => {
    const res = await createSurvey({
      questions: [{ ...questions[0], required: true }],
      anonymous: true,
    });
    const fields = expectProblem(res, 400, 'invalidRequest').errors.map((e: any) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['questions.0.required', 'anonymous']));
  });

  it('needs surveys:write (403 missingScope), refuses the demonstration workspace and a module switched off', async () => {
    const body = { title: { en: 'x' }, questions };
    const missing = await t.api(`/events/${summit}/surveys`, { key: reader, method: 'POST', body });
    expect(expectProblem(missing, 403, 'missingScope').scope).toBe('surveys:write');

    const demo = t.server.demoKey;
    const demoEvent = (await t.api('/events', { key: demo })).body.data[0].eventId;
    const refused = await t.api(`/events/${demoEvent}/surveys`, { key: demo, method: 'POST', body });
    expectProblem(refused, 403, 'demoWorkspace');

    const { workspaceId: other } = await t.workspace('Survey module off', true);
    const { key: otherKey } = await t.key({ workspaceId: other, preset: 'everything', expires: 'never' });
    const event = sampleIds(other).event('summit');
    const off = await t.api(`/events/${event}`, {
      key: otherKey,
      method: 'PATCH',
      body: { modules: { feedback: false } },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const post = (path: string, b: unknown) => t.api(path, { key: otherKey, method: 'POST', body: b });
    expect(expectProblem(await post(`/events/${event}/surveys`, body), 409, 'moduleOff').module).toBe(
      'feedback',
    );
    const session = (await t.api(`/events/${event}/sessions`, { key: otherKey })).body.data[0].sessionId;
    expectProblem(
      await post(`/events/${event}/sessions/${session}/ratings`, {
        attendeeId: crypto.randomUUID(),
        stars: 3,
      }),
      409,
      'moduleOff',
    );
  });
});

describe('PATCH /events/{eventId}/surveys/{surveyId}', () => {
  it('changes the title and window with If-Match; a stale tag answers 412 and changes nothing', async () => {
    const made = await createSurvey();
    const path = `/events/${summit}/surveys/${made.body.surveyId}`;
    const etag = made.headers.get('etag')!;
    const changed = await t.api(path, {
      key,
      method: 'PATCH',
      body: { title: { en: 'Day one, revised' } },
      headers: { 'if-match': etag },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.title).toEqual({ en: 'Day one, revised' });
    expect(changed.headers.get('etag')).not.toBe(etag);

    const stale = await t.api(path, {
      key,
      method: 'PATCH',
      body: { title: { en: 'Lost update' } },
      headers: { 'if-match': etag },
    });
    expectProblem(stale, 412, 'preconditionFailed');
    const listed = (await t.api(`/events/${summit}/surveys`, { key: reader })).body.data;
    expect(listed.find((s: any) => s.surveyId === made.body.surveyId).title).toEqual({
      en: 'Day one, revised',
    });
  });

  it('keeps questions people answered: no removal, no new kind, no chosen option dropped; the rest may change', async () => {
    const surveyId = await newSurvey();
    const { attendeeId } = await newAttendee();
    expect((await answer(surveyId, { attendeeId, answers: { overall: 5, heard: 'friend' } })).status).toBe(
      201,
    );
    const path = `/events/${summit}/surveys/${surveyId}`;
    const patch = (qs: unknown[]) => t.api(path, { key, method: 'PATCH', body: { questions: qs } });

    const [overall, recommend, heard, , again] = questions;
    const refused = await patch([
      {
        ...heard,
        options: [
          { value: 'social', label: { en: 'Social media' } },
          { value: 'radio', label: { en: 'Radio' } },
        ],
      },
      { ...again, id: 'overall' },
    ]);
    const problem = expectProblem(refused, 409, 'questionAnswered');
    expect(problem.errors).toEqual([
      { field: 'questions.overall', message: '1 people answered it as rating; its kind stays.' },
      { field: 'questions.heard', message: 'The option friend was chosen; it cannot be removed.' },
    ]);
    const removed = await patch([heard]);
    expect(expectProblem(removed, 409, 'questionAnswered').errors).toEqual([
      { field: 'questions.overall', message: '1 people answered it; it cannot be removed.' },
    ]);

    // Relabelled, reordered, unanswered ones removed, a question and an option added: accepted.
    const accepted = await patch([
      { ...heard, options: [...heard!.options!, { value: 'radio', label: { en: 'Radio' } }] },
      { ...overall, label: { en: 'Overall?' } },
      { id: 'food', kind: 'rating', label: { en: 'The food?' } },
    ]);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.questions.map((q: any) => q.id)).toEqual(['heard', 'overall', 'food']);
    expect(recommend).toBeDefined();
    expect((await results(surveyId)).results.find((r: any) => r.questionId === 'overall').average).toBe(5);
  });

  it('answers 404 notFound for a survey of another event', async () => {
    const meetup = sampleIds(workspaceId).event('meetup');
    const surveyId = await newSurvey();
    const res = await t.api(`/events/${meetup}/surveys/${surveyId}`, {
      key,
      method: 'PATCH',
      body: { title: { en: 'x' } },
    });
    expectProblem(res, 404, 'notFound');
  });
});

describe('the window: answers only while a survey is open', () => {
  it('refuses answers before it opens and after it closes (409 surveyNotOpen); closing it now stops answers', async () => {
    const { attendeeId } = await newAttendee();
    const early = await newSurvey({ opensUtc: hourFromNow(1) });
    const before = expectProblem(
      await answer(early, { attendeeId, answers: goodAnswers }),
      409,
      'surveyNotOpen',
    );
    expect(before.detail).toMatch(/opens at/);

    const open = await newSurvey({ opensUtc: hourFromNow(-1) });
    const closing = await t.api(`/events/${summit}/surveys/${open}`, {
      key,
      method: 'PATCH',
      body: { closesUtc: new Date().toISOString() },
    });
    expect(closing.status, JSON.stringify(closing.body)).toBe(200);
    const after = expectProblem(
      await answer(open, { attendeeId, answers: goodAnswers }),
      409,
      'surveyNotOpen',
    );
    expect(after.detail).toMatch(/closed at/);

    const reopened = await t.api(`/events/${summit}/surveys/${open}`, {
      key,
      method: 'PATCH',
      body: { closesUtc: null },
    });
    expect(reopened.status).toBe(200);
    expect((await answer(open, { attendeeId, answers: goodAnswers })).status).toBe(201);
  });
});

describe('POST /events/{eventId}/surveys/{surveyId}/answers', () => {
  it("takes an attendee's answers once, adds them to the results, and never shows who gave them", async () => {
    const surveyId = await newSurvey();
    const { attendeeId } = await newAttendee();
    const res = await answer(surveyId, { attendeeId, answers: goodAnswers });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([
      'answeredUtc',
      'feedbackId',
      'rating',
      'sessionId',
      'surveyId',
    ]);
    expect(res.body).toMatchObject({ surveyId, sessionId: null, rating: null });
    expect(JSON.stringify(res.body)).not.toContain(attendeeId);

    const second = await answer(surveyId, { attendeeId, answers: { overall: 1 } });
    expectProblem(second, 409, 'alreadyAnswered');

    const got = await results(surveyId);
    expect(got.responses).toBe(1);
    expect(got.results.find((r: any) => r.questionId === 'recommend').nps).toBe(100);
    expect(got.results.find((r: any) => r.questionId === 'comments').texts).toEqual(['Lovely.']);
    const listed = (await t.api(`/events/${summit}/surveys`, { key: reader })).body.data;
    const view = listed.find((s: any) => s.surveyId === surveyId);
    expect(view.responses).toBe(1);
    for (const answerShown of [got, view]) expect(JSON.stringify(answerShown)).not.toContain(attendeeId);
  });

  it('takes one answer per attendee even when the same attendee sends several at the same moment', async () => {
    const surveyId = await newSurvey();
    const { attendeeId } = await newAttendee();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => answer(surveyId, { attendeeId, answers: { overall: 3 } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409))
      expect(refused.body.code).toBe('alreadyAnswered');
    expect((await results(surveyId)).responses).toBe(1);
  });

  it('names every answer that does not fit its question', async () => {
    const surveyId = await newSurvey();
    const { attendeeId } = await newAttendee();
    const res = await answer(surveyId, {
      attendeeId,
      answers: {
        overall: 6,
        recommend: 4.5,
        heard: 'radio',
        topics: ['ai', 'cooking'],
        again: 'yes',
        comments: 'x'.repeat(5001),
        colour: 'blue',
      },
    });
    expect(expectProblem(res, 400, 'invalidRequest').errors).toEqual([
      { field: 'answers.overall', message: 'A rating is a whole number from 1 to 5.' },
      { field: 'answers.recommend', message: 'A scale answer is a whole number from 0 to 10.' },
      { field: 'answers.heard', message: 'Not one of the options.' },
      { field: 'answers.topics', message: 'A list of the options.' },
      { field: 'answers.again', message: 'true or false.' },
      { field: 'answers.comments', message: 'Text of 5000 characters at most.' },
      { field: 'answers.colour', message: 'No question of this survey has this id.' },
    ]);
    expect(
      expectProblem(await answer(surveyId, { attendeeId, answers: {} }), 400, 'invalidRequest').errors,
    ).toEqual([{ field: 'answers', message: 'Answer at least one question.' }]);
    // Nothing was kept: the attendee may still answer.
    expect((await answer(surveyId, { attendeeId, answers: { overall: 2 } })).status).toBe(201);
  });

  it('answers 404 attendeeNotFound for an attendee of another event, and notFound for an unknown survey', async () => {
    const surveyId = await newSurvey();
    const meetupAttendee = (
      await db()
        .selectFrom('attendees')
        .select('id')
        .where('event_id', '=', sampleIds(workspaceId).event('meetup'))
        .executeTakeFirstOrThrow()
    ).id;
    expectProblem(
      await answer(surveyId, { attendeeId: meetupAttendee, answers: { overall: 1 } }),
      404,
      'attendeeNotFound',
    );
    const { attendeeId } = await newAttendee();
    expectProblem(
      await answer(crypto.randomUUID(), { attendeeId, answers: { overall: 1 } }),
      404,
      'notFound',
    );
  });

  it('replays an answer sent again with its Idempotency-Key instead of refusing it as a second answer', async () => {
    const surveyId = await newSurvey();
    const { attendeeId } = await newAttendee();
    const headers = { 'idempotency-key': `answer-${Math.random()}` };
    const first = await answer(surveyId, { attendeeId, answers: { overall: 4 } }, headers);
    const again = await answer(surveyId, { attendeeId, answers: { overall: 4 } }, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('sends feedback.given with the answer, naming no one', async () => {
    const surveyId = await newSurvey();
    const { attendeeId } = await newAttendee();
    const res = await answer(surveyId, { attendeeId, answers: { overall: 4 } });
    const sent = (await outbox(t, workspaceId)).filter(
      (m) => m.type === 'feedback.given' && m.payload.data.feedback.feedbackId === res.body.feedbackId,
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]!.payload.data.feedback).toEqual(res.body);
    expect(JSON.stringify(sent[0]!.payload)).not.toContain(attendeeId);
  });

  it('marks the survey changed for updatedSince, as its answer count changed', async () => {
    const surveyId = await newSurvey();
    // After the survey's own moment for sure: an answer within the same millisecond would count it.
    const since = new Date(Date.now() + 5).toISOString();
    await new Promise((r) => setTimeout(r, 20));
    const untouched = await t.api(`/events/${summit}/surveys?updatedSince=${since}`, { key: reader });
    expect(untouched.body.data.map((s: any) => s.surveyId)).not.toContain(surveyId);
    const { attendeeId } = await newAttendee();
    await answer(surveyId, { attendeeId, answers: { overall: 4 } });
    const changed = await t.api(`/events/${summit}/surveys?updatedSince=${since}`, { key: reader });
    expect(changed.body.data.map((s: any) => [s.surveyId, s.responses])).toEqual([[surveyId, 1]]);
  });
});

describe('DELETE /events/{eventId}/surveys/{surveyId}', () => {
  it('removes the survey and its answers (204); If-Match honoured; again answers 404', async () => {
    const made = await createSurvey();
    const surveyId = made.body.surveyId;
    const { attendeeId } = await newAttendee();
    await answer(surveyId, { attendeeId, answers: { overall: 4 } });
    const path = `/events/${summit}/surveys/${surveyId}`;
    expectProblem(
      await t.api(path, { key, method: 'DELETE', headers: { 'if-match': made.headers.get('etag')! } }),
      412,
      'preconditionFailed',
    );
    const removed = await t.api(path, { key, method: 'DELETE' });
    expect(removed.status).toBe(204);
    const left = await db()
      .selectFrom('survey_responses')
      .select('id')
      .where('survey_id', '=', surveyId)
      .execute();
    expect(left).toEqual([]);
    expectProblem(await t.api(`${path}/results`, { key: reader }), 404, 'notFound');
    expectProblem(await t.api(path, { key, method: 'DELETE' }), 404, 'notFound');
  });
});

describe('POST /events/{eventId}/sessions/{sessionId}/ratings', () => {
  it('takes 1 to 5 stars and a comment once per attendee and session, counted by GET session-ratings', async () => {
    const ratingsOf = async () =>
      (await t.api(`/events/${summit}/session-ratings`, { key: reader })).body.sessions.find(
        (s: any) => s.sessionId === sessionId,
      );
    const before = await ratingsOf();
    const { attendeeId } = await newAttendee();
    const res = await rate({ attendeeId, stars: 5, comment: '  Best talk of the day.  ' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ surveyId: null, sessionId, rating: 5 });
    expect(JSON.stringify(res.body)).not.toContain(attendeeId);

    const after = await ratingsOf();
    expect(after.count).toBe(before.count + 1);
    expect(after.distribution[4]).toBe(before.distribution[4] + 1);
    expect(after.comments.at(-1)).toBe('Best talk of the day.');
    expect(JSON.stringify(after)).not.toContain(attendeeId);

    expectProblem(await rate({ attendeeId, stars: 1 }), 409, 'alreadyRated');
    // Another session is another rating.
    const other = (await t.api(`/events/${summit}/sessions`, { key })).body.data[1].sessionId;
    expect((await rate({ attendeeId, stars: 2 }, other)).status).toBe(201);
  });

  it('takes one rating per attendee and session when several arrive at the same moment', async () => {
    const { attendeeId } = await newAttendee();
    const answers = await Promise.all(Array.from({ length: 6 }, () => rate({ attendeeId, stars: 4 })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const stored = await db()
      .selectFrom('session_ratings')
      .select('id')
      .where('attendee_id', '=', attendeeId)
      .execute();
    expect(stored).toHaveLength(1);
  });

  it('names every bad field, and answers notFound for a session of another event', async () => {
    const { attendeeId } = await newAttendee();
    const res = await rate({ attendeeId: 'nobody', stars: 6, comment: 'x'.repeat(2001), mood: 'happy' });
    const fields = expectProblem(res, 400, 'invalidRequest').errors.map((e: any) => e.field);
    expect(fields.sort()).toEqual(['attendeeId', 'comment', 'mood', 'stars']);
    const meetup = sampleIds(workspaceId).event('meetup');
    const meetupSession = (await t.api(`/events/${meetup}/sessions`, { key })).body.data[0]?.sessionId;
    if (meetupSession) expectProblem(await rate({ attendeeId, stars: 3 }, meetupSession), 404, 'notFound');
    expectProblem(await rate({ attendeeId, stars: 3 }, crypto.randomUUID()), 404, 'notFound');
  });
});

describe('erasure', () => {
  it('cuts the link of their answers and ratings to them; the results stay as they were', async () => {
    const surveyId = await newSurvey();
    const { attendeeId, email } = await newAttendee();
    await answer(surveyId, { attendeeId, answers: goodAnswers });
    await rate({ attendeeId, stars: 3, comment: 'Fine.' });
    const resultsBefore = await results(surveyId);
    const ratingsBefore = (await t.api(`/events/${summit}/session-ratings`, { key: reader })).body;

    const counts = await erasePerson(await operatorContext(t.server.services, workspaceId), { email });
    expect(counts).toMatchObject({ attendees: 1, surveyResponses: 1, sessionRatings: 1 });

    for (const table of ['survey_responses', 'session_ratings'] as const) {
      const linked = await db()
        .selectFrom(table)
        .select('id')
        .where('attendee_id', '=', attendeeId)
        .execute();
      expect(linked, table).toEqual([]);
    }
    expect(await results(surveyId)).toEqual(resultsBefore);
    expect((await t.api(`/events/${summit}/session-ratings`, { key: reader })).body).toEqual(ratingsBefore);
    // Erased, they give no more feedback: it would link them again.
    expectProblem(await rate({ attendeeId, stars: 3 }), 404, 'attendeeNotFound');
  });
});
