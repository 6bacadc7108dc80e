// Resending a ticket (POST /events/{eventId}/attendees/{attendeeId}/resend-ticket, tool
// resend_ticket): a new confirmation with its own Message-ID, answered 201 with the e-mail of the
// log; a retry with the same Idempotency-Key answers the same one and sends nothing more; refused
// for a cancelled ticket, an event that sends no e-mail, an erased person, without
// attendees:write, in the demonstration workspace, and with a field it does not take.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoKey, demoWorkspaceId } from '../../core/admin/demo-workspace';
import { expectProblem } from '../support/fixtures';
import { person, register, sampleIds } from '../support/sales';
import type { TestServer } from '../support/server';
import type { SmtpTestServer } from '../support/smtp';
import { eventToRegisterFor, mailRows, serverWithMail, settled } from './mail-support';

let t: TestServer;
let smtp: SmtpTestServer;
let workspaceId: string;
let key: string;
let eventId: string;
let ticketTypeId: string;
let eventName: string;

beforeAll(async () => {
  ({ t, smtp } = await serverWithMail());
  ({ workspaceId, key, eventId, ticketTypeId, eventName } = await eventToRegisterFor(t));
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const to = (address: string) => smtp.received.filter((m) => m.to.includes(address));
const resend = (
  attendeeId: string,
  o: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
) =>
  t.api(`/events/${eventId}/attendees/${attendeeId}/resend-ticket`, {
    key: o.key ?? key,
    method: 'POST',
    body: o.body ?? {},
    headers: o.headers,
  });

async function registered(): Promise<{ attendeeId: string; email: string; ticketCode: string }> {
  const p = person(ticketTypeId);
  const res = await register(t, key, eventId, [p]);
  const a = res.body.attendees[0];
  return { attendeeId: a.attendeeId, email: p.email as string, ticketCode: a.ticketCode };
}

describe('resending a ticket', () => {
  it('sends the ticket again as a new e-mail, once per Idempotency-Key', async () => {
    const kim = await registered();
    await settled(t, eventId);
    const headers = { 'idempotency-key': `resend-${kim.attendeeId}` };
    const res = await resend(kim.attendeeId, { headers });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      eventId,
      attendeeId: kim.attendeeId,
      cause: 'ticketResent',
      recipient: kim.email,
      subject: `Your ticket for ${eventName}`,
      state: 'queued',
    });
    const again = await resend(kim.attendeeId, { headers });
    expect(again.status).toBe(201);
    expect(again.body.emailId).toBe(res.body.emailId);
    await settled(t, eventId);
    const mails = to(kim.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.messageId).toBe(res.body.messageId);
    expect(mails[1]!.messageId).not.toBe(mails[0]!.messageId);
    expect(mails[1]!.text).toContain(`Here is your ticket for ${eventName} again.`);
    expect(mails[1]!.text).toContain(`/t/${kim.ticketCode}`);
    expect(mails[1]!.attachments.map((a) => a.filename)).toEqual(['ticket.ics']);
    // A second request of its own is a second resend.
    expect((await resend(kim.attendeeId)).status).toBe(201);
    await settled(t, eventId);
    expect(to(kim.email)).toHaveLength(3);
  });

  it('is answered by the tool resend_ticket as by REST', async () => {
    const lou = await registered();
    const client = await t.mcp(key);
    try {
      const out = (await client.callTool({
        name: 'resend_ticket',
        arguments: { eventId, attendeeId: lou.attendeeId },
      })) as any;
      expect(out.isError).toBeFalsy();
      expect(out.structuredContent).toMatchObject({ attendeeId: lou.attendeeId, cause: 'ticketResent' });
    } finally {
      await client.close();
    }
  });
});

describe('refusals', () => {
  it('409 alreadyCancelled for a cancelled ticket', async () => {
    const max = await registered();
    await t.api(`/events/${eventId}/attendees/${max.attendeeId}/cancel`, { key, method: 'POST', body: {} });
    expectProblem(await resend(max.attendeeId), 409, 'alreadyCancelled');
  });

  it('409 emailNotSent for an event that sends none, and for an erased person', async () => {
    const ned = await registered();
    await t.server.services.db
      .insertInto('event_sign_up')
      .values({
        event_id: eventId,
        workspace_id: workspaceId,
        public_form: 1,
        payment_instructions: null,
        send_emails: 0,
        updated_utc: new Date().toISOString(),
      })
      .execute();
    try {
      const off = expectProblem(await resend(ned.attendeeId), 409, 'emailNotSent');
      expect(off.detail).toMatch(/sign-up settings say not to send e-mail/);
    } finally {
      await t.server.services.db.deleteFrom('event_sign_up').where('event_id', '=', eventId).execute();
    }
    await t.api('/people/erasure', { key, method: 'POST', body: { email: ned.email } });
    const erased = expectProblem(await resend(ned.attendeeId), 409, 'emailNotSent');
    expect(erased.detail).toBe('The person erased their data.');
  });

  it('409 emailNotSent in a sample workspace, saying a sample workspace sends no e-mail and how to make a real one', async () => {
    const sample = await eventToRegisterFor(t, { sample: true });
    const made = await register(t, sample.key, sample.eventId, [person(sample.ticketTypeId)]);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const attendeeId = made.body.attendees[0].attendeeId;
    const refused = await t.api(`/events/${sample.eventId}/attendees/${attendeeId}/resend-ticket`, {
      key: sample.key,
      method: 'POST',
      body: {},
    });
    const problem = expectProblem(refused, 409, 'emailNotSent');
    expect(problem.detail).toMatch(/sample data \(--sample\) sends no e-mail/);
    expect(problem.detail).toContain(
      'make a workspace without sample data (tessera workspace create --name NAME)',
    );
  });

  it('404 attendeeNotFound for a ticket of no event of the caller', async () => {
    expectProblem(await resend('00000000-0000-4000-8000-000000000003'), 404, 'attendeeNotFound');
  });

  it('400 invalidRequest naming a field it does not take', async () => {
    const oz = await registered();
    const res = expectProblem(
      await resend(oz.attendeeId, { body: { to: 'someone@else.org' } }),
      400,
      'invalidRequest',
    );
    expect((res.errors as { field: string }[]).map((f) => f.field)).toEqual(['to']);
  });

  it('403 missingScope without attendees:write, and 403 demoWorkspace in the demonstration', async () => {
    const pia = await registered();
    const { key: reader } = await t.key({ workspaceId, scopes: ['attendees:read', 'people:read'] });
    expectProblem(await resend(pia.attendeeId, { key: reader }), 403, 'missingScope');
    const demo = sampleIds(demoWorkspaceId);
    const [ticket] = await t.server.services.db
      .selectFrom('attendees')
      .select('id')
      .where('event_id', '=', demo.event('summit'))
      .limit(1)
      .execute();
    const res = await t.api(`/events/${demo.event('summit')}/attendees/${ticket!.id}/resend-ticket`, {
      key: demoKey.key,
      method: 'POST',
      body: {},
    });
    expectProblem(res, 403, 'demoWorkspace');
    expect(await mailRows(t, demo.event('summit'))).toEqual([]);
  });
});
