// Who a new link is for: an attendee of the event (by ticket), a speaker of the event, or a named
// person sharing for a sponsor. Each is one sharer of the event, found again on their next link,
// so the leaderboard counts all their links together. An attendee's or speaker's name and email
// are copied from their ticket or profile, as the sample and the import do: erasure finds the
// sharer by either (core/admin/personal-resources.ts).
import type { EventRow, SharerRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { holderName } from '../platform/holder-name';
import { newId } from '../platform/ids';
import { problem } from '../platform/problems';
import { madeNow } from '../platform/storage/change-stamp';

export type SharerChoice =
  | { attendeeId: string }
  | { speakerId: string }
  | { sponsorId: string; name: string; email: string };

export async function sharerForLink(ctx: Ctx, event: EventRow, choice: SharerChoice): Promise<SharerRow> {
  if ('attendeeId' in choice) return attendeeSharer(ctx, event, choice.attendeeId);
  if ('speakerId' in choice) return speakerSharer(ctx, event, choice.speakerId);
  return sponsorSharer(ctx, event, choice);
}

async function attendeeSharer(ctx: Ctx, event: EventRow, attendeeId: string): Promise<SharerRow> {
  const ticket = await ctx.db
    .selectFrom('attendees')
    .select(['id', 'first_name', 'last_name', 'email', 'erased'])
    .where('id', '=', attendeeId)
    .where('event_id', '=', event.id)
    .executeTakeFirst();
  if (!ticket) throw problem('attendeeNotFound', `No attendee ${attendeeId} at this event.`);
  const name = holderName(ticket);
  // One sharer per ticket (a unique index): a link made at the same moment for the same ticket finds it.
  await ctx.db
    .insertInto('sharers')
    .values({
      ...newSharer(ctx, event),
      kind: 'attendee',
      attendee_id: ticket.id,
      name,
      email: ticket.email,
      erased: ticket.erased,
      ...(await madeNow(ctx)),
    })
    .onConflict((oc) => oc.columns(['event_id', 'attendee_id']).doNothing())
    .execute();
  return ctx.db
    .selectFrom('sharers')
    .selectAll()
    .where('event_id', '=', event.id)
    .where('attendee_id', '=', ticket.id)
    .executeTakeFirstOrThrow();
}

async function speakerSharer(ctx: Ctx, event: EventRow, speakerId: string): Promise<SharerRow> {
  const speaker = await ctx.db
    .selectFrom('speakers')
    .select(['id', 'name', 'email', 'erased'])
    .where('id', '=', speakerId)
    .where('event_id', '=', event.id)
    .executeTakeFirst();
  if (!speaker) throw problem('notFound', `No speaker ${speakerId} at this event.`);
  const known = await ctx.db
    .selectFrom('sharers')
    .selectAll()
    .where('event_id', '=', event.id)
    .where('speaker_id', '=', speaker.id)
    .orderBy('created_utc')
    .orderBy('id')
    .executeTakeFirst();
  if (known) return known;
  const row = {
    ...newSharer(ctx, event),
    kind: 'speaker' as const,
    speaker_id: speaker.id,
    name: speaker.name,
    email: speaker.email,
    erased: speaker.erased,
    ...(await madeNow(ctx)),
  };
  await ctx.db.insertInto('sharers').values(row).execute();
  return row;
}

async function sponsorSharer(
  ctx: Ctx,
  event: EventRow,
  choice: { sponsorId: string; name: string; email: string },
): Promise<SharerRow> {
  const sponsor = await ctx.db
    .selectFrom('sponsors')
    .select('id')
    .where('id', '=', choice.sponsorId)
    .where('event_id', '=', event.id)
    .executeTakeFirst();
  if (!sponsor) throw problem('notFound', `No sponsor ${choice.sponsorId} at this event.`);
  const email = choice.email.toLowerCase();
  // The same person sharing for the same sponsor again is the same sharer.
  const known = await ctx.db
    .selectFrom('sharers')
    .selectAll()
    .where('event_id', '=', event.id)
    .where('sponsor_id', '=', sponsor.id)
    .where('email', '=', email)
    .orderBy('created_utc')
    .orderBy('id')
    .executeTakeFirst();
  if (known) return known;
  const row = {
    ...newSharer(ctx, event),
    kind: 'sponsor' as const,
    sponsor_id: sponsor.id,
    name: choice.name.trim(),
    email,
    erased: 0 as const,
    ...(await madeNow(ctx)),
  };
  await ctx.db.insertInto('sharers').values(row).execute();
  return row;
}

function newSharer(ctx: Ctx, event: EventRow) {
  return {
    id: newId(),
    workspace_id: ctx.actor.workspaceId,
    event_id: event.id,
    attendee_id: null,
    speaker_id: null,
    sponsor_id: null,
  };
}
