// The outbox messages of what an import created and changed, through the event-type registry's
// resources: lead.captured, member.joined/left, shift.signed_up/dropped, feedback.given, claim.*,
// stay.*, travel.changed, certificate.issued and content.published. Imported sales history sends
// no attendee or order messages (those people registered elsewhere, earlier).
import type { Db } from '../../db/connect';
import type { EventRow } from '../../db/schema';
import type { WebhookEventType } from '../../db/values';
import { eventRef } from '../attendees/attendee-message';
import { communityRefOf, memberView } from '../communities/member-view';
import { crewOnShifts, shiftsOfCrew } from '../crew/assignments';
import { crewMemberQuery, shiftQuery } from '../crew/crew-rows';
import { crewMemberView, shiftView } from '../crew/crew-view';
import type { Ctx } from '../platform/context';
import { emit } from '../platform/storage/outbox';
import { leadItemView, leadQuery } from '../sponsors/lead-view';
import { certificateView, claimView, contentView, stayView, travelView } from '../webhooks/message-resources';
import type { PlannedRow } from './plan';
import type { TableChanges, WriteReport } from './write';

type Changed = { id: string; before: PlannedRow | null };

/** Rows created (before null) and updated (with what they were), in that order. */
function changedRows(changes: TableChanges | undefined): Changed[] {
  if (!changes) return [];
  return [...changes.created.map((id) => ({ id, before: null })), ...changes.updated];
}

async function rowsById<T extends { id: string }>(rows: Promise<T[]>): Promise<Map<string, T>> {
  return new Map((await rows).map((r) => [r.id, r]));
}

/** The rows created and updated in one table, as they are now, each with what it was before. */
async function nowAndBefore<T extends { id: string }>(
  changes: TableChanges | undefined,
  load: (ids: string[]) => Promise<T[]>,
): Promise<{ row: T; before: PlannedRow | null }[]> {
  const changed = changedRows(changes);
  const rows = await rowsById(
    inChunks(
      changed.map((c) => c.id),
      load,
    ),
  );
  return changed.map((c) => ({ row: rows.get(c.id)!, before: c.before }));
}

const inChunks = async <T>(ids: string[], load: (some: string[]) => Promise<T[]>): Promise<T[]> => {
  const all: T[] = [];
  for (let i = 0; i < ids.length; i += 500) all.push(...(await load(ids.slice(i, i + 500))));
  return all;
};

export async function emitImportMessages(ctx: Ctx, report: WriteReport): Promise<number> {
  const db = ctx.db;
  let sent = 0;
  const events = new Map<string, EventRow>();
  const eventOf = async (id: string) => {
    let event = events.get(id);
    if (!event) {
      event = await db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      events.set(id, event);
    }
    return event;
  };
  const send = async (type: WebhookEventType, eventId: string | null, data: Record<string, unknown>) => {
    await emit(ctx, { type, eventId, data });
    sent++;
  };
  const withEvent = async (eventId: string, data: Record<string, unknown>) => ({
    event: eventRef(await eventOf(eventId)),
    ...data,
  });

  // lead.captured: a new lead the visitor agreed to share.
  const leads = report.tables.get('leads')?.created ?? [];
  for (const lead of await inChunks(leads, (some) => leadQuery(db).where('leads.id', 'in', some).execute()))
    if (lead.shared === 1 && lead.erased === 0)
      await send(
        'lead.captured',
        lead.event_id,
        await withEvent(lead.event_id, leadItemView('unredacted', lead)),
      );

  // member.joined / member.left: a member who became active, or left.
  const members = await nowAndBefore(report.tables.get('community_members'), (some) =>
    db.selectFrom('community_members').selectAll().where('id', 'in', some).execute(),
  );
  for (const { row, before } of members) {
    const type =
      row.status === 'active' && before?.status !== 'active'
        ? 'member.joined'
        : row.status === 'left' && before !== null && before.status !== 'left'
          ? 'member.left'
          : null;
    if (!type) continue;
    const community = await db
      .selectFrom('communities')
      .selectAll()
      .where('id', '=', row.community_id)
      .executeTakeFirstOrThrow();
    await send(type, null, { community: communityRefOf(community), member: memberView('unredacted', row) });
  }

  sent += await emitShiftMessages(ctx, report, eventOf);

  // feedback.given: each new survey answer and session rating (never who gave it).
  const responses = report.tables.get('survey_responses')?.created ?? [];
  for (const r of await inChunks(responses, (some) =>
    db
      .selectFrom('survey_responses')
      .innerJoin('surveys', 'surveys.id', 'survey_responses.survey_id')
      .select([
        'survey_responses.id',
        'survey_responses.survey_id',
        'survey_responses.submitted_utc',
        'surveys.event_id',
      ])
      .where('survey_responses.id', 'in', some)
      .execute(),
  ))
    await send(
      'feedback.given',
      r.event_id,
      await withEvent(r.event_id, {
        feedback: {
          feedbackId: r.id,
          surveyId: r.survey_id,
          sessionId: null,
          rating: null,
          answeredUtc: r.submitted_utc,
        },
      }),
    );
  const ratings = report.tables.get('session_ratings')?.created ?? [];
  for (const r of await inChunks(ratings, (some) =>
    db.selectFrom('session_ratings').selectAll().where('id', 'in', some).execute(),
  ))
    await send(
      'feedback.given',
      r.event_id,
      await withEvent(r.event_id, {
        feedback: {
          feedbackId: r.id,
          surveyId: null,
          sessionId: r.session_id,
          rating: r.stars,
          answeredUtc: r.rated_utc,
        },
      }),
    );

  // claim.*: a claim in (or moved to) submitted, approved or paid.
  const claims = await nowAndBefore(report.tables.get('expense_claims'), (some) =>
    db.selectFrom('expense_claims').selectAll().where('id', 'in', some).execute(),
  );
  for (const { row, before } of claims) {
    if (before?.status === row.status || row.status === 'rejected') continue;
    await send(`claim.${row.status}`, row.event_id, await withEvent(row.event_id, { claim: claimView(row) }));
  }

  // stay.*: requested, assigned or cancelled as its status moves there; changed when its details do.
  const stays = await nowAndBefore(report.tables.get('stays'), (some) =>
    db.selectFrom('stays').selectAll().where('id', 'in', some).execute(),
  );
  for (const { row, before } of stays) {
    const type =
      before === null
        ? row.status === 'cancelled'
          ? null
          : (`stay.${row.status}` as const)
        : before.status !== row.status
          ? (`stay.${row.status}` as const)
          : row.status === 'cancelled'
            ? null
            : 'stay.changed';
    if (type) await send(type, row.event_id, await withEvent(row.event_id, { stay: stayView(row) }));
  }

  // travel.changed: a journey booked or changed.
  const journeys = await nowAndBefore(report.tables.get('travel'), (some) =>
    db.selectFrom('travel').selectAll().where('id', 'in', some).execute(),
  );
  for (const { row } of journeys)
    await send('travel.changed', row.event_id, await withEvent(row.event_id, { travel: travelView(row) }));

  // certificate.issued and content.published: new ones.
  for (const c of await inChunks(report.tables.get('certificates')?.created ?? [], (some) =>
    db.selectFrom('certificates').selectAll().where('id', 'in', some).execute(),
  ))
    await send(
      'certificate.issued',
      c.event_id,
      await withEvent(c.event_id, { certificate: certificateView(c) }),
    );
  for (const c of await inChunks(report.tables.get('published_content')?.created ?? [], (some) =>
    db.selectFrom('published_content').selectAll().where('id', 'in', some).execute(),
  ))
    await send('content.published', c.event_id, await withEvent(c.event_id, { content: contentView(c) }));
  return sent;
}

/** shift.signed_up and shift.dropped: who the file added to a shift's crew, and who it took off. */
async function emitShiftMessages(
  ctx: Ctx,
  report: WriteReport,
  eventOf: (id: string) => Promise<EventRow>,
): Promise<number> {
  const changes = report.sets.get('shift_assignments');
  if (!changes || changes.added.length + changes.removed.length === 0) return 0;
  const db: Db = ctx.db;
  const moves = [
    ...changes.added.map((r) => ({ type: 'shift.signed_up' as const, row: r })),
    ...changes.removed.map((r) => ({ type: 'shift.dropped' as const, row: r })),
  ];
  const shiftIds = [...new Set(moves.map((m) => String(m.row.shift_id)))];
  const crewIds = [...new Set(moves.map((m) => String(m.row.crew_member_id)))];
  const shifts = await rowsById(shiftQuery(db).where('shifts.id', 'in', shiftIds).execute());
  const crew = await rowsById(crewMemberQuery(db).where('crew_members.id', 'in', crewIds).execute());
  const onShifts = await crewOnShifts(db, shiftIds);
  const shiftsOf = await shiftsOfCrew(db, crewIds);
  for (const { type, row } of moves) {
    const shift = shifts.get(String(row.shift_id))!;
    const member = crew.get(String(row.crew_member_id))!;
    const event = await eventOf(shift.event_id);
    await emit(ctx, {
      type,
      eventId: event.id,
      data: {
        event: eventRef(event),
        shift: shiftView(event, shift, onShifts.get(shift.id) ?? []),
        crewMember: crewMemberView('unredacted', member, shiftsOf.get(member.id) ?? []),
      },
    });
  }
  return moves.length;
}
