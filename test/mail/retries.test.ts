// Retries with the webhook deliveries' schedule: a 4xx answer (or a connection that fails) is tried
// again later with the same Message-ID, a 5xx refusal of the recipient fails the message at once,
// and the schedule's last attempt gives up. The clock is moved rather than waited for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxAttempts } from '../../core/platform/retry-schedule';
import { person, register } from '../support/sales';
import { MutableClock, type TestServer } from '../support/server';
import type { SmtpTestServer } from '../support/smtp';
import { eventToRegisterFor, mailRows, serverWithMail } from './mail-support';

let t: TestServer;
let smtp: SmtpTestServer;
const clock = new MutableClock();

beforeAll(async () => {
  ({ t, smtp } = await serverWithMail({ scheduledJobs: false, clock }));
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function sendDue() {
  t.server.mailSender!.tick();
  await t.server.mailSender!.drained();
}

const to = (address: string) => smtp.received.filter((m) => m.to.includes(address));

describe('a temporary refusal', () => {
  it('is tried again after the first wait of the schedule, and then sent once, with the same Message-ID', async () => {
    const { key, eventId, ticketTypeId } = await eventToRegisterFor(t);
    const gro = person(ticketTypeId);
    await register(t, key, eventId, [gro]);
    let refusals = 0;
    smtp.onRecipient((address) => {
      if (address !== gro.email || refusals > 0) return null;
      refusals += 1;
      return { code: 451, message: `4.7.1 <${address}> greylisted, try again later` };
    });
    await sendDue();
    const [waiting] = await mailRows(t, eventId);
    expect([waiting!.state, waiting!.attempts]).toEqual(['queued', 1]);
    expect(waiting!.last_error).toMatch(/451/);
    // The server's answer quoted the address: the log keeps it without.
    expect(waiting!.last_error).not.toContain(gro.email as string);
    const wait = Date.parse(waiting!.next_attempt_utc!) - clock.now().getTime();
    expect(wait).toBeGreaterThan(4_000);
    expect(wait).toBeLessThan(6_000);
    // Not yet due: nothing happens.
    await sendDue();
    expect((await mailRows(t, eventId))[0]!.attempts).toBe(1);
    clock.advance(6_000);
    await sendDue();
    const [sent] = await mailRows(t, eventId);
    expect([sent!.state, sent!.attempts, sent!.last_error]).toEqual(['sent', 2, null]);
    expect(to(gro.email as string).map((m) => m.messageId)).toEqual([sent!.message_id]);
    expect(refusals).toBe(1);
  });

  it('gives up after the last attempt of the schedule', async () => {
    const { key, eventId, ticketTypeId } = await eventToRegisterFor(t);
    const hal = person(ticketTypeId);
    await register(t, key, eventId, [hal]);
    smtp.onRecipient((address) => (address === hal.email ? { code: 452, message: 'Mailbox full' } : null));
    try {
      for (let i = 0; i < maxAttempts; i++) {
        await sendDue();
        clock.advance(26 * 3_600_000);
      }
      await sendDue();
    } finally {
      smtp.onRecipient(() => null);
    }
    const [row] = await mailRows(t, eventId);
    expect([row!.state, row!.attempts, row!.next_attempt_utc]).toEqual(['failed', maxAttempts, null]);
    expect(to(hal.email as string)).toEqual([]);
  });

  it('after a connection that failed (the server down) is tried again', async () => {
    const { key, eventId, ticketTypeId } = await eventToRegisterFor(t);
    const ida = person(ticketTypeId);
    await register(t, key, eventId, [ida]);
    smtp.onMessage((mail) =>
      mail.to.includes(ida.email as string) ? { code: 421, message: 'Service not available, closing' } : null,
    );
    await sendDue();
    smtp.onMessage(() => null);
    expect((await mailRows(t, eventId)).map((r) => [r.state, r.attempts])).toEqual([['queued', 1]]);
    clock.advance(6_000);
    await sendDue();
    expect((await mailRows(t, eventId)).map((r) => r.state)).toEqual(['sent']);
    expect(to(ida.email as string)).toHaveLength(1);
  });
});

describe('a permanent refusal', () => {
  it('of the recipient fails the message at once', async () => {
    const { key, eventId, ticketTypeId } = await eventToRegisterFor(t);
    const jon = person(ticketTypeId);
    await register(t, key, eventId, [jon]);
    smtp.onRecipient((address) =>
      address === jon.email ? { code: 550, message: `5.1.1 <${address}>: Recipient address rejected` } : null,
    );
    await sendDue();
    smtp.onRecipient(() => null);
    const [row] = await mailRows(t, eventId);
    expect([row!.state, row!.attempts, row!.next_attempt_utc]).toEqual(['failed', 1, null]);
    expect(row!.last_error).toMatch(/550/);
    expect(row!.last_error).toContain('(the recipient)');
    clock.advance(3_600_000);
    await sendDue();
    expect((await mailRows(t, eventId))[0]!.attempts).toBe(1);
    expect(to(jon.email as string)).toEqual([]);
  });
});
