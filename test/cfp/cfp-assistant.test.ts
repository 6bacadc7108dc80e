// The call for speakers run by an assistant through the MCP client alone (issue 26, item 1): the
// call opened, a submission sent (replayed by its idempotency key) and changed with the entity tag
// it gave, reviewed twice by one reviewer (one review), moved under review and accepted into a
// draft session, then the refusals as tool errors carrying the REST problem: a speaker-facing
// site outside the window (callClosed), a move the table does not allow (statusNotAllowed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleId } from '../../db/sample/ids';
import { callTool, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';

let t: TestServer;
let workspaceId: string;
let organiser: string;
let site: string;
let summit: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Call for speakers by an assistant', true));
  ({ key: organiser } = await t.key({
    workspaceId,
    scopes: ['cfp:write', 'people:read', 'program:read'],
    expires: 'never',
  }));
  ({ key: site } = await t.key({ workspaceId, scopes: ['submissions:write'], expires: 'never' }));
  summit = sampleIds(workspaceId).event('summit');
});
afterAll(async () => t?.close());

/** A tool's answer and the entity tag in its _meta. */
async function callWithTag(
  client: Awaited<ReturnType<TestServer['mcp']>>,
  name: string,
  args: Record<string, unknown>,
) {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: any;
    _meta?: { etag?: string };
  };
  expect(result.isError, JSON.stringify(result)).toBeFalsy();
  return { data: result.structuredContent, etag: result._meta?.etag };
}

describe('an assistant runs the call for speakers through MCP alone', () => {
  it('opens the call, takes a submission, changes it, reviews it and accepts it into a draft session', async () => {
    const client = await t.mcp(organiser, {}, '?toolsets=cfp');
    try {
      const listed = (await client.listTools()).tools;
      for (const name of [
        'get_call_for_speakers',
        'update_call_for_speakers',
        'create_submission',
        'update_submission',
        'withdraw_submission',
        'change_submission_status',
        'review_submission',
        'list_submission_reviews',
      ])
        expect(listed.find((tool) => tool.name === name)?.description, name).toContain('Tessera extension');

      const engineering = sampleId(workspaceId, 'track/summit/engineering');
      const call = await callTool(client, 'update_call_for_speakers', {
        eventId: summit,
        opensUtc: new Date(Date.now() - 60_000).toISOString(),
        closesLocal: '2099-06-30T23:59',
        formats: ['talk', 'lightning'],
        trackIds: [engineering],
      });
      expect(call.isError, JSON.stringify(call.data)).toBe(false);
      expect(call.data).toMatchObject({
        open: true,
        formats: ['talk', 'lightning'],
        trackIds: [engineering],
      });
      expect((await callTool(client, 'get_call_for_speakers', { eventId: summit })).data).toEqual(call.data);

      const args = {
        eventId: summit,
        title: 'Observability for humans',
        abstract: 'Dashboards people read.',
        format: 'talk',
        trackId: engineering,
        language: 'en',
        speakers: [{ name: 'Mina Holt', email: 'mina.holt@example.org', company: 'Northwind' }],
        idempotencyKey: 'observability-talk',
      };
      const made = await callWithTag(client, 'create_submission', args);
      expect(made.data).toMatchObject({ status: 'submitted', speakers: [{ name: 'Mina Holt' }] });
      expect((await callTool(client, 'create_submission', args)).data).toEqual(made.data);

      const changed = await callWithTag(client, 'update_submission', {
        eventId: summit,
        submissionId: made.data.submissionId,
        format: 'lightning',
        ifMatch: made.etag,
      });
      expect(changed.data.format).toBe('lightning');
      const stale = await callTool(client, 'update_submission', {
        eventId: summit,
        submissionId: made.data.submissionId,
        title: 'Stale',
        ifMatch: made.etag,
      });
      expect(stale).toMatchObject({ isError: true, data: { code: 'preconditionFailed' } });

      const ids = { eventId: summit, submissionId: made.data.submissionId };
      await callWithTag(client, 'review_submission', { ...ids, reviewer: 'ola@example.org', score: 3 });
      const again = await callWithTag(client, 'review_submission', {
        ...ids,
        reviewer: 'ola@example.org',
        score: 4,
        comment: 'Clearer now.',
      });
      expect(again.data).toMatchObject({ score: 4, comment: 'Clearer now.', reviewer: 'ola@example.org' });
      const reviews = await callTool(client, 'list_submission_reviews', ids);
      expect(reviews.data.data).toEqual([again.data]);

      const skipped = await callTool(client, 'change_submission_status', { ...ids, status: 'accepted' });
      expect(skipped).toMatchObject({
        isError: true,
        data: { code: 'statusNotAllowed', currentStatus: 'submitted' },
      });
      await callWithTag(client, 'change_submission_status', { ...ids, status: 'underReview' });
      const accepted = await callWithTag(client, 'change_submission_status', {
        ...ids,
        status: 'accepted',
        session: { startsLocal: '2026-09-11T15:00', endsLocal: '2026-09-11T15:10' },
      });
      expect(accepted.data).toMatchObject({ status: 'accepted', reviews: 1, rating: 4 });
      expect(accepted.data.history.map((h: any) => h.status)).toEqual([
        'submitted',
        'underReview',
        'accepted',
      ]);
      const session = await t.api(`/events/${summit}/sessions/${accepted.data.sessionId}`, {
        key: organiser,
      });
      expect(session.body).toMatchObject({ title: 'Observability for humans', draft: true, minutes: 10 });
    } finally {
      await client.close();
    }
  });

  it('gives a speaker-facing site only its three tools, refused outside the window as a tool error', async () => {
    const client = await t.mcp(site, {}, '?toolsets=cfp');
    try {
      const names = (await client.listTools()).tools
        .map((tool) => tool.name)
        .filter((name) => name.includes('submission') || name.includes('call_for_speakers'))
        .sort();
      expect(names).toEqual(['create_submission', 'update_submission', 'withdraw_submission']);
      const admin = await t.mcp(organiser, {}, '?toolsets=cfp');
      await callTool(admin, 'update_call_for_speakers', {
        eventId: summit,
        closesUtc: new Date().toISOString(),
      });
      await admin.close();
      const refused = await callTool(client, 'create_submission', {
        eventId: summit,
        title: 'Late',
        abstract: 'Too late.',
        format: 'talk',
        language: 'en',
        speakers: [{ name: 'Late Larry', email: 'larry@example.org' }],
      });
      expect(refused).toMatchObject({ isError: true, data: { code: 'callClosed', status: 409 } });
    } finally {
      await client.close();
    }
  });
});
