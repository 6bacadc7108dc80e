// Surveys and ratings run by an assistant through the MCP client alone (issue 25, item 5): it finds
// the tools (marked as extensions), makes a survey, has attendees answer it and rate a session,
// reads the results, changes the survey with the entity tag it was given, closes it, and removes
// it; the refusals come back as tool errors with their codes.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let client: Client;
let summit: string;

beforeAll(async () => {
  t = await startTestServer();
  const { workspaceId } = await t.workspace('Survey assistant', true);
  const { key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' });
  client = await t.mcp(key, {}, '?toolsets=surveys');
  summit = sampleIds(workspaceId).event('summit');
});
afterAll(async () => {
  await client?.close();
  await t.close();
});

/** A tool's answer with its _meta (where the entity tag travels). */
async function callRaw(name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: any;
    content: { text: string }[];
    _meta?: { etag?: string };
  };
}

describe('an assistant running a survey', () => {
  it('finds the write tools, each marked a Tessera extension, the removal marked destructive', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of [
      'create_survey',
      'update_survey',
      'delete_survey',
      'submit_survey_answer',
      'rate_session',
    ]) {
      expect(byName.get(name)?.description, name).toMatch(/Tessera extension\./);
    }
    // destructiveHint is left out where it is true, the specification's default.
    expect(byName.get('delete_survey')!.annotations).toMatchObject({ idempotentHint: true });
    expect(byName.get('delete_survey')!.annotations).not.toHaveProperty('destructiveHint');
    expect(byName.get('submit_survey_answer')!.annotations).toMatchObject({ destructiveHint: false });
    expect(byName.get('create_survey')!.inputSchema.properties).toHaveProperty('idempotencyKey');
    expect(byName.get('update_survey')!.inputSchema.properties).toHaveProperty('ifMatch');
  });

  it('creates a survey, has two attendees answer it and rate a session, and reads the results', async () => {
    const made = await callRaw('create_survey', {
      eventId: summit,
      title: { en: 'Quick pulse' },
      questions: [
        { id: 'mood', kind: 'rating', label: { en: 'How is your day?' } },
        { id: 'nps', kind: 'scale', label: { en: 'Recommend us?' } },
        {
          id: 'track',
          kind: 'choice',
          label: { en: 'Favourite track' },
          options: [
            { value: 'a', label: { en: 'Track A' } },
            { value: 'b', label: { en: 'Track B' } },
          ],
        },
      ],
      idempotencyKey: 'pulse-1',
    });
    expect(made.isError, made.content[0]!.text).toBeFalsy();
    const surveyId = made.structuredContent.surveyId;
    const etag = made._meta?.etag;
    expect(etag).toMatch(/"/);

    const attendees = await callTool(client, 'list_attendees', { eventId: summit, limit: 2 });
    const [first, second] = attendees.data.data.map((a: any) => a.attendeeId);
    const answers = [
      { attendeeId: first, answers: { mood: 5, nps: 10, track: 'a' } },
      { attendeeId: second, answers: { mood: 3, nps: 6, track: 'a' } },
    ];
    for (const a of answers) {
      const given = await callTool(client, 'submit_survey_answer', { eventId: summit, surveyId, ...a });
      expect(given.isError, JSON.stringify(given.data)).toBe(false);
      expect(given.data).toMatchObject({ surveyId, sessionId: null });
      expect(JSON.stringify(given.data)).not.toContain(a.attendeeId);
    }
    const twice = await callTool(client, 'submit_survey_answer', {
      eventId: summit,
      surveyId,
      ...answers[0]!,
    });
    expect(twice).toMatchObject({ isError: true, data: { code: 'alreadyAnswered' } });

    const totals = await callTool(client, 'get_survey_results', { eventId: summit, surveyId });
    expect(totals.data.responses).toBe(2);
    const by = (id: string) => totals.data.results.find((r: any) => r.questionId === id);
    expect(by('mood').average).toBe(4);
    expect(by('nps').nps).toBe(0);
    expect(by('track').options.map((o: any) => o.count)).toEqual([2, 0]);
    expect(JSON.stringify(totals.data)).not.toContain(first);

    const sessions = await callTool(client, 'list_sessions', { eventId: summit, limit: 1 });
    const sessionId = sessions.data.data[0].sessionId;
    const rated = await callTool(client, 'rate_session', {
      eventId: summit,
      sessionId,
      attendeeId: first,
      stars: 4,
      comment: 'Clear and useful.',
    });
    expect(rated.data).toMatchObject({ sessionId, rating: 4 });
    const again = await callTool(client, 'rate_session', {
      eventId: summit,
      sessionId,
      attendeeId: first,
      stars: 2,
    });
    expect(again).toMatchObject({ isError: true, data: { code: 'alreadyRated' } });
    const ratings = await callTool(client, 'get_session_ratings', { eventId: summit });
    const session = ratings.data.sessions.find((s: any) => s.sessionId === sessionId);
    expect(session.comments).toContain('Clear and useful.');

    // The tag from creation is stale now (two answers changed the survey): refused, then re-read.
    const stale = await callTool(client, 'update_survey', {
      eventId: summit,
      surveyId,
      closesUtc: new Date().toISOString(),
      ifMatch: etag,
    });
    expect(stale).toMatchObject({ isError: true, data: { code: 'preconditionFailed' } });
    const closed = await callRaw('update_survey', {
      eventId: summit,
      surveyId,
      closesUtc: new Date().toISOString(),
    });
    expect(closed.isError, closed.content[0]!.text).toBeFalsy();
    expect(closed._meta?.etag).toMatch(/"/);
    const late = await callTool(client, 'submit_survey_answer', {
      eventId: summit,
      surveyId,
      attendeeId: (await callTool(client, 'list_attendees', { eventId: summit, limit: 3 })).data.data[2]
        .attendeeId,
      answers: { mood: 1 },
    });
    expect(late).toMatchObject({ isError: true, data: { code: 'surveyNotOpen' } });

    const removed = await callTool(client, 'delete_survey', { eventId: summit, surveyId });
    expect(removed.data).toEqual({ surveyId, deleted: true });
    const gone = await callTool(client, 'get_survey_results', { eventId: summit, surveyId });
    expect(gone).toMatchObject({ isError: true, data: { code: 'notFound' } });
  });
});
