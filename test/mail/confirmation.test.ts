// The confirmation of a ticket and the notice of its cancellation, through the real HTTPS API and a
// real SMTP server: the ticket's link and its calendar entry, the event's name as sender name, a
// Message-ID derived from the cause, text and HTML (escaped), one message per cause.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { person, register } from '../support/sales';
import type { TestServer } from '../support/server';
import type { SmtpTestServer } from '../support/smtp';
import { eventToRegisterFor, mailFrom, mailRows, serverWithMail, settled } from './mail-support';

let t: TestServer;
let smtp: SmtpTestServer;

beforeAll(async () => {
  ({ t, smtp } = await serverWithMail());
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const to = (address: string) => smtp.received.filter((m) => m.to.includes(address));

describe('the confirmation of a ticket', () => {
  it('reaches the attendee with the ticket link, the .ics, the event as sender name and a stable Message-ID', async () => {
    const { key, eventId, ticketTypeId, eventName } = await eventToRegisterFor(t, {
      name: `Fjord <Summit> & "Friends" ${Date.now()}`,
    });
    const ada = person(ticketTypeId);
    const res = await register(t, key, eventId, [ada]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const attendee = res.body.attendees[0];
    const rows = await settled(t, eventId);
    expect(rows.map((r) => [r.cause_kind, r.cause_id, r.state, r.attempts])).toEqual([
      ['ticketIssued', attendee.attendeeId, 'sent', 1],
    ]);
    const [mail] = to(ada.email as string);
    expect(mail, 'one message to the attendee').toBeDefined();
    expect(to(ada.email as string)).toHaveLength(1);
    expect(mail!.subject).toBe(`Your ticket for ${eventName}`);
    expect(mail!.headers.from).toContain(`<${mailFrom}>`);
    expect(mail!.headers.from).toContain('Fjord <Summit> & \\"Friends\\"');
    expect(mail!.messageId).toBe(`<ticketIssued.${attendee.attendeeId}@tessera.test>`);
    expect(mail!.messageId).toBe(rows[0]!.message_id);
    const link = `${t.server.publicOrigin}/t/${attendee.ticketCode}`;
    expect(mail!.text).toContain(link);
    expect(mail!.text).toContain(`Hello ${ada.firstName},`);
    expect(mail!.text).toContain('Day pass');
    expect(mail!.text).toContain(res.body.reference);
    // The time in the venue's zone (09:00 in Oslo), not in UTC (07:00).
    expect(mail!.text).toContain('Sat 1 May 2027, 09:00 – 17:00 (Europe/Oslo)');
    expect(mail!.text).toContain('Main hall, Oslo, NO');
    expect(mail!.html).toContain(`href="${link}"`);
    expect(mail!.html).toContain('Fjord &lt;Summit&gt; &amp; &quot;Friends&quot;');
    expect(mail!.html).not.toContain('<Summit>');
    expect(mail!.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['ticket.ics', 'text/calendar'],
    ]);
    const ics = mail!.attachments[0]!.body;
    expect(ics).toContain('BEGIN:VEVENT');
    expect(ics).toContain(`UID:${attendee.attendeeId}@tessera`);
    expect(ics.replace(/\r\n /g, '')).toContain(link);
  });

  it('is queued once per ticket: a registration of three sends three, each to its own address', async () => {
    const { key, eventId, ticketTypeId } = await eventToRegisterFor(t);
    const people = [person(ticketTypeId), person(ticketTypeId), person(ticketTypeId)];
    const res = await register(t, key, eventId, people, {
      headers: { 'idempotency-key': `three-${Date.now()}` },
    });
    expect(res.status).toBe(201);
    const rows = await settled(t, eventId);
    expect(rows.map((r) => r.state)).toEqual(['sent', 'sent', 'sent']);
    for (const p of people) expect(to(p.email as string)).toHaveLength(1);
  });
});

describe('the notice of a cancelled ticket', () => {
  it('tells the attendee their ticket no longer admits them, once', async () => {
    const { key, eventId, ticketTypeId, eventName } = await eventToRegisterFor(t);
    const bo = person(ticketTypeId);
    const res = await register(t, key, eventId, [bo]);
    const attendeeId = res.body.attendees[0].attendeeId as string;
    await settled(t, eventId);
    const cancelled = await t.api(`/events/${eventId}/attendees/${attendeeId}/cancel`, {
      key,
      method: 'POST',
      body: {},
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const rows = await settled(t, eventId);
    expect(rows.map((r) => [r.cause_kind, r.state])).toEqual([
      ['ticketIssued', 'sent'],
      ['ticketCancelled', 'sent'],
    ]);
    const mails = to(bo.email as string);
    expect(mails.map((m) => m.subject)).toEqual([
      `Your ticket for ${eventName}`,
      `Your ticket for ${eventName} is cancelled`,
    ]);
    expect(mails[1]!.text).toContain('it no longer admits you');
    expect(mails[1]!.text).toContain(res.body.reference);
    expect(mails[1]!.messageId).toBe(`<ticketCancelled.${attendeeId}@tessera.test>`);
  });
});

// Last: the sender is stopped here, so a confirmation stays queued.
describe('a ticket cancelled before its confirmation went out', () => {
  it('cancels the queued confirmation and sends no notice', async () => {
    const { key, eventId, ticketTypeId } = await eventToRegisterFor(t);
    await t.server.mailSender!.stop();
    const cy = person(ticketTypeId);
    const res = await register(t, key, eventId, [cy]);
    const attendeeId = res.body.attendees[0].attendeeId as string;
    expect((await mailRows(t, eventId)).map((r) => [r.cause_kind, r.state])).toEqual([
      ['ticketIssued', 'queued'],
    ]);
    const cancelled = await t.api(`/events/${eventId}/attendees/${attendeeId}/cancel`, {
      key,
      method: 'POST',
      body: {},
    });
    expect(cancelled.status).toBe(200);
    const rows = await mailRows(t, eventId);
    expect(rows.map((r) => [r.cause_kind, r.state, r.last_error])).toEqual([
      ['ticketIssued', 'cancelled', 'The ticket was cancelled before this went out.'],
    ]);
    expect(to(cy.email as string)).toEqual([]);
  });
});
