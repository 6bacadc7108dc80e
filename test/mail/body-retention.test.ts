// E-mail bodies are kept only for the retention period the operator sets
// (TESSERA_MAIL_BODY_RETENTION_DAYS, 90 days by default): the nightly purge, driven here at a moved
// clock, empties the body, HTML and attachments of older messages and keeps who, when, which cause
// and the outcome; the log (REST and MCP) still lists the message and says its body was purged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeOldRecords } from '../../src/jobs';
import { settingsFrom } from '../../src/settings';
import { person, register } from '../support/sales';
import { capturingLogger, MutableClock, type TestServer } from '../support/server';
import type { SmtpTestServer } from '../support/smtp';
import { eventToRegisterFor, mailRows, serverWithMail, settled } from './mail-support';

const clock = new MutableClock();
const { logger, lines } = capturingLogger();
let t: TestServer;
let smtp: SmtpTestServer;
let key: string;
let eventId: string;
let oldId: string;
let newId: string;
let purgedFrom: string;

beforeAll(async () => {
  ({ t, smtp } = await serverWithMail({ clock }));
  let ticketTypeId: string;
  ({ key, eventId, ticketTypeId } = await eventToRegisterFor(t));
  const old = await register(t, key, eventId, [person(ticketTypeId)]);
  expect(old.status).toBe(201);
  await settled(t, eventId);
  // 91 days later, another message: the first is past 90 days, this one is not.
  clock.advance(91 * 86_400_000);
  const recent = await register(t, key, eventId, [person(ticketTypeId)]);
  expect(recent.status).toBe(201);
  await settled(t, eventId);
  const rows = await mailRows(t, eventId);
  oldId = rows.find((r) => r.attendee_id === old.body.attendees[0].attendeeId)!.id;
  newId = rows.find((r) => r.attendee_id === recent.body.attendees[0].attendeeId)!.id;
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const row = async (id: string) => (await mailRows(t, eventId)).find((r) => r.id === id)!;

describe('the retention of e-mail bodies', () => {
  it('is 90 days unless the operator sets TESSERA_MAIL_BODY_RETENTION_DAYS, which must be a whole number of days', () => {
    expect(settingsFrom({}, {}).mailBodyRetentionDays).toBe(90);
    expect(settingsFrom({}, { TESSERA_MAIL_BODY_RETENTION_DAYS: '30' }).mailBodyRetentionDays).toBe(30);
    expect(() => settingsFrom({}, { TESSERA_MAIL_BODY_RETENTION_DAYS: '0' })).toThrow(/at least 1/);
    expect(() => settingsFrom({}, { TESSERA_MAIL_BODY_RETENTION_DAYS: 'soon' })).toThrow(/whole number/);
  });

  it('purges the body of a message older than the period in the nightly job, and keeps a newer one', async () => {
    const before = await row(oldId);
    expect(before.text_body).toContain('Hello');
    purgedFrom = clock.now().toISOString();
    await purgeOldRecords(t.server.services, logger, { mailBodyRetentionDays: 90 });
    const purged = await row(oldId);
    expect([purged.text_body, purged.html_body, purged.attachments]).toEqual([null, null, null]);
    // Who, when, which template and the outcome stay.
    expect(purged).toMatchObject({
      recipient: before.recipient,
      created_utc: before.created_utc,
      sent_utc: before.sent_utc,
      cause_kind: 'ticketIssued',
      subject: before.subject,
      state: 'sent',
      erased: 0,
    });
    expect(purged.updated_utc > before.updated_utc).toBe(true);
    const kept = await row(newId);
    expect(kept.text_body).toContain('Hello');
    expect(kept.html_body).not.toBeNull();
    expect(lines.find((l) => l.msg === 'purged old records')).toMatchObject({ mailBodies: 1 });
  });

  it('leaves the purged message in the log with its metadata, saying its body was purged (REST and MCP)', async () => {
    const listed = await t.api(`/events/${eventId}/emails`, { key });
    expect(listed.status).toBe(200);
    const byId = new Map(listed.body.data.map((e: any) => [e.emailId, e]));
    expect(byId.get(oldId)).toMatchObject({
      cause: 'ticketIssued',
      state: 'sent',
      bodyPurged: true,
      erased: false,
    });
    expect((byId.get(oldId) as any).recipient).toContain('@');
    expect(byId.get(newId)).toMatchObject({ bodyPurged: false });
    const one = await t.api(`/events/${eventId}/emails/${oldId}`, { key });
    expect(one.body).toMatchObject({ emailId: oldId, bodyPurged: true, sentUtc: expect.any(String) });
    const client = await t.mcp(key);
    try {
      const result = (await client.callTool({
        name: 'get_email',
        arguments: { eventId, emailId: oldId },
      })) as {
        structuredContent: Record<string, unknown>;
      };
      expect(result.structuredContent).toMatchObject({ emailId: oldId, bodyPurged: true });
    } finally {
      await client.close();
    }
  });

  it('lets an updatedSince reader see the purge as a change', async () => {
    const changed = await t.api(`/events/${eventId}/emails?updatedSince=${encodeURIComponent(purgedFrom)}`, {
      key,
    });
    expect(changed.body.data.map((e: any) => e.emailId)).toContain(oldId);
  });
});
