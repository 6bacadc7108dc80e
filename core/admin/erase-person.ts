// Erasure: a person deleted their data. Everything personal about them is nulled wherever it
// appears in the workspace (tickets, orders they bought, outbox messages not yet or already sent:
// attendee messages of their tickets and order messages of the orders they bought),
// `erased` becomes true, and attendee.erased is sent for each of their tickets.
import * as v from 'valibot';
import { nextChangeSeq } from '../../db/sequence';
import { emitAttendeeMessages } from '../attendees/attendee-message';
import { logChange } from '../platform/change-log';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { inTransaction } from './operator';

const personalAttendeeFields = ['firstName', 'lastName', 'email', 'company', 'jobTitle', 'answers'] as const;
const personalOrderFields = ['buyerName', 'buyerEmail', 'buyerCompany'] as const;

export async function erasePerson(
  operator: Ctx,
  who: { email?: string; attendeeId?: string },
): Promise<{ attendees: number; orders: number; passHolders: number; speakers: number }> {
  if ((who.email === undefined) === (who.attendeeId === undefined))
    throw problem('invalidRequest', 'Give either an email or an attendee id.');
  if (who.email !== undefined && !v.is(v.pipe(v.string(), v.email()), who.email))
    throw problem('invalidRequest', 'Not an email address.');
  return inTransaction(operator, async (ctx) => {
    const workspaceId = ctx.actor.workspaceId;
    let email = who.email?.toLowerCase();
    if (who.attendeeId) {
      const row = await ctx.db
        .selectFrom('attendees')
        .select('email')
        .where('id', '=', who.attendeeId)
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst();
      if (!row) throw problem('attendeeNotFound', `No attendee ${who.attendeeId} in this workspace.`);
      email = row.email ?? undefined;
    }
    const attendees = await ctx.db
      .selectFrom('attendees')
      .select(['id', 'event_id'])
      .where('workspace_id', '=', workspaceId)
      .where('erased', '=', 0)
      .where((eb) => (email ? eb('email', '=', email) : eb('id', '=', who.attendeeId!)))
      .orderBy('id')
      .execute();
    const now = ctx.clock.now().toISOString();
    for (const a of attendees) {
      await ctx.db
        .updateTable('attendees')
        .set({
          first_name: null,
          last_name: null,
          email: null,
          company: null,
          job_title: null,
          answers: null,
          erased: 1,
          updated_utc: now,
          change_seq: await nextChangeSeq(ctx.db),
        })
        .where('id', '=', a.id)
        .execute();
    }
    const orders = email
      ? await ctx.db
          .selectFrom('orders')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .where('buyer_email', '=', email)
          .execute()
      : [];
    for (const o of orders) {
      await ctx.db
        .updateTable('orders')
        .set({
          buyer_name: null,
          buyer_email: null,
          buyer_company: null,
          erased: 1,
          updated_utc: now,
          change_seq: await nextChangeSeq(ctx.db),
        })
        .where('id', '=', o.id)
        .execute();
    }
    const passHolders = email ? await erasePassHolders(ctx, email, now) : 0;
    const speakers = email ? await eraseSpeakers(ctx, email, now) : 0;
    await scrubOutbox(ctx, new Set(attendees.map((a) => a.id)));
    await scrubOrderMessages(ctx, new Set(orders.map((o) => o.id)));

    const byEvent = new Map<string, string[]>();
    for (const a of attendees) byEvent.set(a.event_id, [...(byEvent.get(a.event_id) ?? []), a.id]);
    for (const [eventId, ids] of byEvent) {
      const event = await ctx.db
        .selectFrom('events')
        .select(['id', 'slug', 'name'])
        .where('id', '=', eventId)
        .executeTakeFirstOrThrow();
      await emitAttendeeMessages(ctx, 'attendee.erased', event, ids);
    }
    await logChange(ctx, {
      action: 'erasePerson',
      resourceType: 'person',
      resourceId: who.attendeeId ?? 'by-email',
      summary: `${attendees.length} ticket(s), ${orders.length} order(s), ${passHolders} pass holder(s), ${speakers} speaker(s)`,
    });
    return { attendees: attendees.length, orders: orders.length, passHolders, speakers };
  });
}

/** The person as a holder of season passes and bundles: names and email gone. */
async function erasePassHolders(ctx: Ctx, email: string, now: string): Promise<number> {
  const holders = await ctx.db
    .selectFrom('pass_holders')
    .select('id')
    .where('workspace_id', '=', ctx.actor.workspaceId)
    .where('email', '=', email)
    .execute();
  for (const h of holders) {
    await ctx.db
      .updateTable('pass_holders')
      .set({
        first_name: null,
        last_name: null,
        email: null,
        erased: 1,
        updated_utc: now,
        change_seq: await nextChangeSeq(ctx.db),
      })
      .where('id', '=', h.id)
      .execute();
  }
  return holders.length;
}

/** The person as a speaker: their email goes, and nothing about them is shown any more. */
async function eraseSpeakers(ctx: Ctx, email: string, now: string): Promise<number> {
  const speakers = await ctx.db
    .selectFrom('speakers')
    .select('id')
    .where('workspace_id', '=', ctx.actor.workspaceId)
    .where('email', '=', email)
    .execute();
  for (const sp of speakers) {
    await ctx.db
      .updateTable('speakers')
      .set({
        email: null,
        company: null,
        job_title: null,
        bio: null,
        photo_url: null,
        erased: 1,
        updated_utc: now,
        change_seq: await nextChangeSeq(ctx.db),
      })
      .where('id', '=', sp.id)
      .execute();
  }
  return speakers.length;
}

/** Removes the person's details from attendee messages already recorded in the outbox. */
async function scrubOutbox(ctx: Ctx, attendeeIds: Set<string>): Promise<void> {
  if (attendeeIds.size === 0) return;
  const messages = await ctx.db
    .selectFrom('outbox')
    .select(['id', 'payload'])
    .where('workspace_id', '=', ctx.actor.workspaceId)
    .where('type', 'like', 'attendee.%')
    .execute();
  for (const m of messages) {
    const payload = JSON.parse(m.payload) as { data?: { attendee?: Record<string, unknown> } };
    const attendee = payload.data?.attendee;
    if (!attendee || !attendeeIds.has(attendee.attendeeId as string)) continue;
    for (const field of personalAttendeeFields) attendee[field] = null;
    attendee.erased = true;
    attendee.personalData = 'erased';
    await ctx.db
      .updateTable('outbox')
      .set({ payload: JSON.stringify(payload) })
      .where('id', '=', m.id)
      .execute();
  }
}

/** Removes the buyer's details from order messages (order.paid) of the orders they bought. */
async function scrubOrderMessages(ctx: Ctx, orderIds: Set<string>): Promise<void> {
  if (orderIds.size === 0) return;
  const messages = await ctx.db
    .selectFrom('outbox')
    .select(['id', 'payload'])
    .where('workspace_id', '=', ctx.actor.workspaceId)
    .where('type', 'like', 'order.%')
    .execute();
  for (const m of messages) {
    const payload = JSON.parse(m.payload) as { data?: { order?: Record<string, unknown> } };
    const order = payload.data?.order;
    if (!order || !orderIds.has(order.orderId as string)) continue;
    for (const field of personalOrderFields) order[field] = null;
    order.erased = true;
    order.personalData = 'erased';
    await ctx.db
      .updateTable('outbox')
      .set({ payload: JSON.stringify(payload) })
      .where('id', '=', m.id)
      .execute();
  }
}
