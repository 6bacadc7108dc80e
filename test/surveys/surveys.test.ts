// Surveys and session ratings (spec Survey, SurveyResults, SessionRatings): results computed from
// the answers behind them (checked here against the stored answers, and again after one more
// answer), ratings per session and for the event, never who answered; module feedback, scope
// surveys:read, 404s, and the MCP tools.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleId } from '../../db/sample/ids';
import { eventBody, expectProblem } from '../support/fixtures';
import { callTool, walkPages } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let key: string;
const id = (name: string) => sampleId(workspaceId, name);

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Surveys workspace', true));
  ({ key } = await t.key({ workspaceId, scopes: ['surveys:read', 'events:write'], expires: 'never' }));
});
afterAll(async () => t.close());

const db = () => t.server.services.db;
const summit = () => id('event/summit');
const survey = () => id('survey/summit-feedback');

/** The results as the spec defines them, worked out here from the stored answers. */
async function expectedResults(surveyId: string) {
  const row = await db()
    .selectFrom('surveys')
    .selectAll()
    .where('id', '=', surveyId)
    .executeTakeFirstOrThrow();
  const answers = (
    await db()
      .selectFrom('survey_responses')
      .select('answers')
      .where('survey_id', '=', surveyId)
      .orderBy('submitted_utc')
      .orderBy('id')
      .execute()
  ).map((a) => JSON.parse(a.answers));
  const questions = JSON.parse(row.questions) as any[];
  return {
    responses: answers.length,
    results: questions.map((q) => {
      const given = answers.map((a) => a[q.id]).filter((x) => x !== undefined && x !== null);
      const base = { questionId: q.id, kind: q.kind, label: q.label };
      if (q.kind === 'rating') {
        const mean = given.reduce((a: number, b: number) => a + b, 0) / given.length;
        return {
          ...base,
          answered: given.length,
          average: given.length ? Math.round(mean * 100) / 100 : null,
        };
      }
      if (q.kind === 'scale') {
        const promoters = given.filter((s: number) => s >= 9).length;
        const detractors = given.filter((s: number) => s <= 6).length;
        return {
          ...base,
          answered: given.length,
          nps: given.length ? Math.round(((promoters - detractors) * 100) / given.length) : null,
        };
      }
      if (q.kind === 'choice' || q.kind === 'multipleChoice') {
        const lists = given.map((x: any) => (Array.isArray(x) ? x : [x])).filter((l: any[]) => l.length > 0);
        return {
          ...base,
          answered: lists.length,
          options: q.options.map((o: any) => ({
            value: o.value,
            label: o.label,
            count: lists.filter((l: any[]) => l.includes(o.value)).length,
          })),
        };
      }
      if (q.kind === 'yesNo')
        return { ...base, answered: given.length, yes: given.filter((x: boolean) => x).length };
      return { ...base, answered: given.length, texts: given };
    }),
  };
}

describe('GET /events/{eventId}/surveys', () => {
  it("lists an event's surveys with their questions and how many answered", async () => {
    const { items } = await walkPages(t, key, `/events/${summit()}/surveys`);
    expect(items.map((s) => s.surveyId)).toEqual([survey()]);
    const [s] = items;
    expect(Object.keys(s).sort()).toEqual(
      [
        'surveyId',
        'eventId',
        'title',
        'questions',
        'opensUtc',
        'closesUtc',
        'opensLocal',
        'closesLocal',
        'responses',
        'updatedUtc',
      ].sort(),
    );
    const stored = await db()
      .selectFrom('survey_responses')
      .select('id')
      .where('survey_id', '=', survey())
      .execute();
    expect(s.responses).toBe(stored.length);
    expect(s.title).toEqual({ en: 'Summit feedback', nb: 'Tilbakemelding' });
    expect(s.questions.map((q: any) => q.kind)).toEqual([
      'rating',
      'scale',
      'choice',
      'multipleChoice',
      'yesNo',
      'text',
    ]);
    // Venue time: Oslo is one or two hours ahead of UTC.
    expect(s.opensLocal).toMatch(/^\d{4}-\d{2}-\d{2}T1[34]:00$/);
  });

  it('pages with a cursor', async () => {
    const { items, pages } = await walkPages(t, key, `/events/${id('event/meetup')}/surveys?limit=1`);
    expect(items).toHaveLength(1);
    expect(pages).toBe(1);
  });
});

describe('GET /events/{eventId}/surveys/{surveyId}/results', () => {
  it('adds up the stored answers question by question, and never says who answered', async () => {
    const res = await t.api(`/events/${summit()}/surveys/${survey()}/results`, { key });
    expect(res.status).toBe(200);
    const expected = await expectedResults(survey());
    expect(res.body).toEqual({
      surveyId: survey(),
      eventId: summit(),
      title: { en: 'Summit feedback', nb: 'Tilbakemelding' },
      ...expected,
    });
    for (const r of res.body.results) expect(r.answered).toBeGreaterThan(0);
    expect(JSON.stringify(res.body)).not.toMatch(/@|attendee|respondent/i);
  });

  it('is computed at each call: one more answer changes the results', async () => {
    const before = (await t.api(`/events/${summit()}/surveys/${survey()}/results`, { key })).body;
    await db()
      .insertInto('survey_responses')
      .values({
        id: crypto.randomUUID(),
        workspace_id: workspaceId,
        survey_id: survey(),
        answers: JSON.stringify({
          overall: 1,
          recommend: 0,
          heard: 'social',
          topics: ['ai'],
          again: false,
          comments: 'Too loud.',
        }),
        submitted_utc: new Date().toISOString(),
      })
      .execute();
    const after = (await t.api(`/events/${summit()}/surveys/${survey()}/results`, { key })).body;
    expect(after.responses).toBe(before.responses + 1);
    expect(after).toEqual({ ...after, ...(await expectedResults(survey())) });
    const text = after.results.find((r: any) => r.kind === 'text');
    expect(text.texts.at(-1)).toBe('Too loud.');
    const nps = after.results.find((r: any) => r.kind === 'scale');
    expect(nps.nps).toBeLessThan(before.results.find((r: any) => r.kind === 'scale').nps + 1);
  });

  it('leaves out answers outside a question’s range', async () => {
    await db()
      .insertInto('survey_responses')
      .values({
        id: crypto.randomUUID(),
        workspace_id: workspaceId,
        survey_id: survey(),
        answers: JSON.stringify({ overall: 9, recommend: 11, heard: 'radio', again: 'maybe' }),
        submitted_utc: new Date().toISOString(),
      })
      .execute();
    const res = (await t.api(`/events/${summit()}/surveys/${survey()}/results`, { key })).body;
    const expected = await expectedResults(survey());
    const answered = (qid: string) => res.results.find((r: any) => r.questionId === qid).answered;
    const plain = (qid: string) => expected.results.find((r: any) => r.questionId === qid)!.answered;
    expect(answered('overall')).toBe(plain('overall') - 1);
    expect(answered('recommend')).toBe(plain('recommend') - 1);
    expect(answered('heard')).toBe(plain('heard') - 1);
    expect(answered('again')).toBe(plain('again') - 1);
  });

  it('answers 404 notFound for a survey of another event, and eventNotFound for an unknown event', async () => {
    expectProblem(
      await t.api(`/events/${summit()}/surveys/${id('survey/meetup-pulse')}/results`, { key }),
      404,
      'notFound',
    );
    expectProblem(
      await t.api(`/events/${sampleId('x', 'event/summit')}/surveys/${survey()}/results`, { key }),
      404,
      'eventNotFound',
    );
  });
});

describe('GET /events/{eventId}/session-ratings', () => {
  it('tallies the ratings of the event and of each session in programme order', async () => {
    const res = await t.api(`/events/${summit()}/session-ratings`, { key });
    expect(res.status).toBe(200);
    const sessions = await db()
      .selectFrom('sessions')
      .select(['id', 'title'])
      .where('event_id', '=', summit())
      .orderBy('starts_utc')
      .orderBy('id')
      .execute();
    const ratings = await db()
      .selectFrom('session_ratings')
      .select(['session_id', 'stars', 'comment'])
      .where('event_id', '=', summit())
      .orderBy('rated_utc')
      .orderBy('id')
      .execute();
    const tally = (stars: number[]) => ({
      count: stars.length,
      average: stars.length
        ? Math.round((stars.reduce((a, b) => a + b, 0) / stars.length) * 100) / 100
        : null,
      distribution: [1, 2, 3, 4, 5].map((s) => stars.filter((x) => x === s).length),
    });
    expect(res.body).toEqual({
      eventId: summit(),
      event: tally(ratings.map((r) => r.stars)),
      sessions: sessions.map((s) => ({
        sessionId: s.id,
        title: s.title,
        ...tally(ratings.filter((r) => r.session_id === s.id).map((r) => r.stars)),
        comments: ratings.filter((r) => r.session_id === s.id && r.comment).map((r) => r.comment),
      })),
    });
    expect(res.body.event.count).toBeGreaterThan(10);
    expect(res.body.sessions.at(-1)).toMatchObject({
      count: 0,
      average: null,
      distribution: [0, 0, 0, 0, 0],
    });
  });
});

describe('rules every survey call follows', () => {
  it('answers 409 moduleOff when the feedback module is off', async () => {
    const made = await t.api('/events', { key, method: 'POST', body: eventBody() });
    expect(made.status).toBe(201);
    const eventId = made.body.eventId;
    const off = await t.api(`/events/${eventId}`, {
      key,
      method: 'PATCH',
      body: { modules: { feedback: false } },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    for (const path of [
      `/events/${eventId}/surveys`,
      `/events/${eventId}/surveys/${survey()}/results`,
      `/events/${eventId}/session-ratings`,
    ])
      expect(expectProblem(await t.api(path, { key }), 409, 'moduleOff').module).toBe('feedback');
  });

  it('needs surveys:read, and keeps to one workspace', async () => {
    const { key: other } = await t.key({ workspaceId, scopes: ['events:read', 'people:read'] });
    for (const path of [`/events/${summit()}/surveys`, `/events/${summit()}/session-ratings`]) {
      const res = await t.api(path, { key: other });
      expect(expectProblem(res, 403, 'missingScope').scope).toBe('surveys:read');
    }
    const { workspaceId: theirs } = await t.workspace('Theirs', true);
    const { key: theirKey } = await t.key({ workspaceId: theirs, preset: 'everything' });
    expectProblem(await t.api(`/events/${summit()}/surveys`, { key: theirKey }), 404, 'eventNotFound');
  });

  it('are tools too, read-only, with the same answers', async () => {
    const client = await t.mcp(key, {}, '?toolsets=surveys');
    try {
      const listed = await callTool(client, 'list_surveys', { eventId: summit() });
      expect(listed.data.data[0].surveyId).toBe(survey());
      const results = await callTool(client, 'get_survey_results', { eventId: summit(), surveyId: survey() });
      expect(results.data).toEqual(
        (await t.api(`/events/${summit()}/surveys/${survey()}/results`, { key })).body,
      );
      const ratings = await callTool(client, 'get_session_ratings', { eventId: summit() });
      expect(ratings.data).toEqual((await t.api(`/events/${summit()}/session-ratings`, { key })).body);
      const tools = (await client.listTools()).tools.filter((x) => /survey|rating/.test(x.name));
      expect(tools).toHaveLength(3);
      for (const x of tools) expect(x.annotations?.readOnlyHint).toBe(true);
    } finally {
      await client.close();
    }
  });
});
