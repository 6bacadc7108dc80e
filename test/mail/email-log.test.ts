// The event's e-mail log through the API (REST and MCP): cursor paging, updatedSince, filters by
// attendee and state, one e-mail by id; the recipient under the personal-data rule (withheld
// without people:read, gone once the person is erased); attendees:read needed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../support/fixtures';
import { person, register, walkPages } from '../support/sales';
import type { TestServer } from '../support/server';
import type { SmtpTestServer } from '../support/smtp';
import { eventToRegisterFor, serverWithMail, settled } from './mail-support';

let t: TestServer;
let smtp: SmtpTestServer;
let workspaceId: string;
let key: string;
let eventId: string;
let people: Record<string, unknown>[];
let attendeeIds: string[];

beforeAll(async () => {
  ({ t, smtp } = await serverWithMail());
  let ticketTypeId: string;
  ({ workspaceId, key, eventId, ticketTypeId } = await eventToRegisterFor(t));
  people = [person(ticketTypeId), person(ticketTypeId), person(ticketTypeId)];
  const res = await register(t, key, eventId, people);
  attendeeIds = res.body.attendees.map((a: any) => a.attendeeId);
  // The third one's address is refused for good.
  smtp.onRecipient((address) =>
    address === people[2]!.email ? { code: 550, message: 'No such user' } : null,
  );
  await settled(t, eventId);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const emails = (query: string, k = key) => t.api(`/events/${eventId}/emails${query}`, { key: k });

describe('GET /events/{eventId}/emails', () => {
  it('lists every e-mail of the event with how its sending went, page by page', async () => {
    const first = await emails('?limit=2');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toHaveLength(2);
    expect(first.body.hasMore).toBe(true);
    const walked = await walkPages(t, key, `/events/${eventId}/emails?limit=1`);
    expect(walked.pages).toBe(3);
    const all = walked.items;
    expect(all.map((e: any) => e.attendeeId).sort()).toEqual([...attendeeIds].sort());
    const byAttendee = new Map(all.map((e: any) => [e.attendeeId, e]));
    expect(byAttendee.get(attendeeIds[0])).toMatchObject({
      eventId,
      cause: 'ticketIssued',
      recipient: people[0]!.email,
      state: 'sent',
      attempts: 1,
      lastError: null,
      nextAttemptUtc: null,
      erased: false,
      personalData: 'included',
    });
    expect(byAttendee.get(attendeeIds[0]).sentUtc).toMatch(/Z$/);
    expect(byAttendee.get(attendeeIds[0]).messageId).toBe(`<ticketIssued.${attendeeIds[0]}@tessera.test>`);
    expect(byAttendee.get(attendeeIds[2])).toMatchObject({ state: 'failed', attempts: 1 });
    expect(byAttendee.get(attendeeIds[2]).lastError).toMatch(/550/);
  });

  it('filters by attendee and by state, and gives what changed since a moment', async () => {
    const one = await emails(`?attendeeId=${attendeeIds[1]}`);
    expect(one.body.data.map((e: any) => e.attendeeId)).toEqual([attendeeIds[1]]);
    const failed = await emails('?state=failed');
    expect(failed.body.data.map((e: any) => e.attendeeId)).toEqual([attendeeIds[2]]);
    const all = (await emails('')).body.data as any[];
    const newest = all
      .map((e) => e.updatedUtc)
      .sort()
      .at(-1);
    const since = await emails(`?updatedSince=${encodeURIComponent(newest)}`);
    expect(since.status).toBe(200);
    expect(since.body.data.length).toBeGreaterThan(0);
    for (const e of since.body.data) expect(e.updatedUtc >= newest).toBe(true);
    expectProblem(await emails('?updatedSince=yesterday'), 400, 'invalidUpdatedSince');
    expectProblem(await emails('?state=lost'), 400, 'invalidRequest');
  });

  it('withholds the recipient without people:read, and needs attendees:read', async () => {
    const { key: noPeople } = await t.key({ workspaceId, scopes: ['attendees:read'] });
    const withheld = await emails('', noPeople);
    expect(withheld.status).toBe(200);
    for (const e of withheld.body.data) expect([e.recipient, e.personalData]).toEqual([null, 'withheld']);
    const { key: eventsOnly } = await t.key({ workspaceId, scopes: ['events:read'] });
    expectProblem(await emails('', eventsOnly), 403, 'missingScope');
  });

  it('answers an unknown event with 404 eventNotFound, and keeps other workspaces out', async () => {
    expectProblem(
      await t.api('/events/00000000-0000-4000-8000-000000000001/emails', { key }),
      404,
      'eventNotFound',
    );
    const other = await t.workspace('Other', false);
    const { key: otherKey } = await t.key({ workspaceId: other.workspaceId, preset: 'everything' });
    expectProblem(await emails('', otherKey), 404, 'eventNotFound');
  });
});

describe('GET /events/{eventId}/emails/{emailId}', () => {
  it('answers one e-mail, and 404 notFound for an id that is not one of the event', async () => {
    const [listed] = (await emails(`?attendeeId=${attendeeIds[0]}`)).body.data;
    const one = await t.api(`/events/${eventId}/emails/${listed.emailId}`, { key });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(listed);
    expectProblem(
      await t.api(`/events/${eventId}/emails/00000000-0000-4000-8000-000000000002`, { key }),
      404,
      'notFound',
    );
  });

  it('says erased, with no recipient, once the person erased their data', async () => {
    const erased = await t.api('/people/erasure', { key, method: 'POST', body: { email: people[1]!.email } });
    expect(erased.status).toBe(200);
    const [listed] = (await emails(`?attendeeId=${attendeeIds[1]}`)).body.data;
    expect(listed).toMatchObject({ recipient: null, erased: true, personalData: 'erased', state: 'sent' });
  });
});

describe('the tools', () => {
  it('list_emails and get_email answer as REST does', async () => {
    const client = await t.mcp(key);
    try {
      const listed = (await client.callTool({ name: 'list_emails', arguments: { eventId } })) as any;
      expect(listed.isError).toBeFalsy();
      const rest = (await emails('')).body;
      expect(listed.structuredContent.data).toEqual(rest.data);
      const got = (await client.callTool({
        name: 'get_email',
        arguments: { eventId, emailId: rest.data[0].emailId },
      })) as any;
      expect(got.structuredContent).toEqual(rest.data[0]);
    } finally {
      await client.close();
    }
  });
});
