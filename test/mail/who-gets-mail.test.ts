// Who is sent e-mail, decided in one place (core/mail/mail-policy.ts) and asked again before
// sending: never an erased person (their queued mail is cancelled, their address and the body
// nulled), never the sample's or the demonstration's made-up addresses, never for an event whose
// sign-up settings say send_emails 0, nothing at all when e-mail is off. The sender runs only
// when the test says (no scheduled jobs), so what is queued can be looked at first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspaceId } from '../../core/admin/demo-workspace';
import { operatorContext } from '../../core/admin/operator';
import { importFile } from '../../core/import/import-file';
import { mailRefusal } from '../../core/mail/mail-policy';
import { queueTicketConfirmations } from '../../core/mail/ticket-mails';
import type { Ctx } from '../../core/platform/context';
import { largeEventFile } from '../support/import-files';
import { person, register, sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import type { SmtpTestServer } from '../support/smtp';
import { eventToRegisterFor, mailRows, serverWithMail } from './mail-support';

let t: TestServer;
let smtp: SmtpTestServer;

beforeAll(async () => {
  ({ t, smtp } = await serverWithMail({ scheduledJobs: false }));
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** One run of the sender over what is due. */
async function sendDue() {
  t.server.mailSender!.tick();
  await t.server.mailSender!.drained();
}

const to = (address: string) => smtp.received.filter((m) => m.to.includes(address));

async function sendEmails(eventId: string, workspaceId: string, on: 0 | 1) {
  await t.server.services.db
    .insertInto('event_sign_up')
    .values({
      event_id: eventId,
      workspace_id: workspaceId,
      public_form: 1,
      payment_instructions: null,
      send_emails: on,
      updated_utc: new Date().toISOString(),
    })
    .onConflict((oc) => oc.column('event_id').doUpdateSet({ send_emails: on }))
    .execute();
}

describe('an erased person', () => {
  it('is sent nothing: their queued confirmation is cancelled and its address and body are gone', async () => {
    const { key, eventId, ticketTypeId } = await eventToRegisterFor(t);
    const dag = person(ticketTypeId);
    const res = await register(t, key, eventId, [dag]);
    expect(res.status).toBe(201);
    expect((await mailRows(t, eventId)).map((r) => [r.state, r.recipient])).toEqual([['queued', dag.email]]);
    const erased = await t.api('/people/erasure', { key, method: 'POST', body: { email: dag.email } });
    expect(erased.status, JSON.stringify(erased.body)).toBe(200);
    expect(erased.body.mailMessages).toBe(1);
    await sendDue();
    const rows = await mailRows(t, eventId);
    expect(
      rows.map((r) => [
        r.state,
        r.erased,
        r.recipient,
        r.text_body,
        r.html_body,
        r.attachments,
        r.last_error,
      ]),
    ).toEqual([['cancelled', 1, null, null, null, null, 'The person erased their data.']]);
    expect(to(dag.email as string)).toEqual([]);
  });

  it('is not sent a message that was being sent when they were erased and must be tried again', async () => {
    const { key, eventId, ticketTypeId } = await eventToRegisterFor(t);
    const eli = person(ticketTypeId);
    await register(t, key, eventId, [eli]);
    // The server answers 451 the first time: the message waits for its next attempt.
    smtp.onRecipient((address) => (address === eli.email ? { code: 451, message: 'Try again later' } : null));
    await sendDue();
    smtp.onRecipient(() => null);
    const [waiting] = await mailRows(t, eventId);
    expect([waiting!.state, waiting!.attempts]).toEqual(['queued', 1]);
    await t.api('/people/erasure', { key, method: 'POST', body: { email: eli.email } });
    await t.server.services.db
      .updateTable('mail_messages')
      .set({ next_attempt_utc: new Date().toISOString() })
      .where('id', '=', waiting!.id)
      .execute();
    await sendDue();
    expect((await mailRows(t, eventId)).map((r) => r.state)).toEqual(['cancelled']);
    expect(to(eli.email as string)).toEqual([]);
  });
});

describe('made-up addresses', () => {
  it('are never sent to from a workspace made with --sample: neither its own events nor new ones queue anything', async () => {
    const { workspaceId, key, eventId, ticketTypeId } = await eventToRegisterFor(t, { sample: true });
    const ids = sampleIds(workspaceId);
    const own = await register(t, key, ids.event('summit'), [person(ids.ticketType('summit', 'standard'))]);
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    const added = await register(t, key, eventId, [person(ticketTypeId)]);
    expect(added.status).toBe(201);
    const rows = await t.server.services.db
      .selectFrom('mail_messages')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('are never sent to from the demonstration workspace', async () => {
    const summit = sampleIds(demoWorkspaceId).event('summit');
    const { services } = t.server;
    expect(
      await mailRefusal(services.db, services.mail, { id: summit, workspace_id: demoWorkspaceId }),
    ).toMatch(/demonstration workspace sends no e-mail/);
    // Even asked directly (the API refuses every write there), nothing is queued for its tickets.
    const tickets = await services.db
      .selectFrom('attendees')
      .select('id')
      .where('event_id', '=', summit)
      .where('status', '=', 'active')
      .limit(3)
      .execute();
    expect(tickets.length).toBeGreaterThan(0);
    const ctx = { db: services.db, clock: services.clock, services, request: { origin: 'https://x' } } as Ctx;
    expect(
      await queueTicketConfirmations(
        ctx,
        summit,
        tickets.map((a) => a.id),
      ),
    ).toBe(0);
    expect(await mailRows(t, summit)).toEqual([]);
  });
});

describe("an event's send_emails setting", () => {
  it('queues nothing for an event whose sign-up settings say 0', async () => {
    const { workspaceId, key, eventId, ticketTypeId } = await eventToRegisterFor(t);
    await sendEmails(eventId, workspaceId, 0);
    const res = await register(t, key, eventId, [person(ticketTypeId)]);
    expect(res.status).toBe(201);
    expect(await mailRows(t, eventId)).toEqual([]);
    // Switched on again, the next ticket is confirmed.
    await sendEmails(eventId, workspaceId, 1);
    const next = person(ticketTypeId);
    await register(t, key, eventId, [next]);
    await sendDue();
    expect((await mailRows(t, eventId)).map((r) => r.state)).toEqual(['sent']);
    expect(to(next.email as string)).toHaveLength(1);
  });

  it('cancels what was queued before it was switched off, when its turn comes', async () => {
    const { workspaceId, key, eventId, ticketTypeId } = await eventToRegisterFor(t);
    const fay = person(ticketTypeId);
    await register(t, key, eventId, [fay]);
    await sendEmails(eventId, workspaceId, 0);
    await sendDue();
    expect((await mailRows(t, eventId)).map((r) => [r.state, r.last_error])).toEqual([
      ['cancelled', "The event's sign-up settings say not to send e-mail."],
    ]);
    expect(to(fay.email as string)).toEqual([]);
  });
});

describe('an import', () => {
  it('sends nothing: tickets brought in from elsewhere were confirmed there', async () => {
    const { workspaceId } = await t.workspace('Imported', false);
    const result = await importFile(
      await operatorContext(t.server.services, workspaceId),
      JSON.stringify(largeEventFile(6, `imported-${Date.now()}`)),
    );
    expect(result).toBeDefined();
    const attendees = await t.server.services.db
      .selectFrom('attendees')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .execute();
    expect(attendees).toHaveLength(6);
    await sendDue();
    const rows = await t.server.services.db
      .selectFrom('mail_messages')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .execute();
    expect(rows).toEqual([]);
  });
});

describe('e-mail off', () => {
  it('queues nothing when no SMTP server is set', async () => {
    const off = await startTestServer();
    try {
      expect(off.server.mailSender).toBeNull();
      expect(off.server.services.mail).toBeUndefined();
      const { key, eventId, ticketTypeId } = await eventToRegisterFor(off);
      const res = await register(off, key, eventId, [person(ticketTypeId)]);
      expect(res.status).toBe(201);
      expect(await mailRows(off, eventId)).toEqual([]);
    } finally {
      await off.close();
    }
  });
});
