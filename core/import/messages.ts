// The outbox messages of what an import created and changed: this file decides which changes
// happened (from the rows written and what they were before); each type's emitter, the same one the
// live use cases call, builds and records the message. lead.captured, member.joined/left,
// shift.signed_up/dropped, feedback.given, claim.*, stay.*, travel.changed, certificate.issued and
// content.published. Imported sales history sends no attendee or order messages (those people
// registered elsewhere, earlier).
import type { Db } from '../../db/connect';
import type { EventRow } from '../../db/schema';
import { certificateIssued } from '../certificates';
import { memberJoined, memberLeft } from '../communities';
import {
  crewMemberQuery,
  crewOnShifts,
  shiftDropped,
  shiftQuery,
  shiftSignedUp,
  shiftsOfCrew,
} from '../crew';
import { claimStatusEmitters } from '../finance';
import { stayChanged, stayStatusEmitters, travelChanged } from '../logistics';
import type { Ctx } from '../platform/context';
import { contentPublished } from '../programme';
import { leadCaptured, leadQuery } from '../sponsors';
import { feedbackGiven } from '../surveys';
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

/** The events of the import's rows, each read once. */
function eventReader(db: Db): (id: string) => Promise<EventRow> {
  const events = new Map<string, EventRow>();
  return async (id) => {
    let event = events.get(id);
    if (!event) {
      event = await db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      events.set(id, event);
    }
    return event;
  };
}

export async function emitImportMessages(ctx: Ctx, report: WriteReport): Promise<number> {
  const db = ctx.db;
  let sent = 0;
  const eventOf = eventReader(db);
  const count = async (emitted: Promise<void>) => {
    await emitted;
    sent++;
  };

  // lead.captured: a new lead the visitor agreed to share.
  const leads = report.tables.get('leads')?.created ?? [];
  for (const lead of await inChunks(leads, (some) => leadQuery(db).where('leads.id', 'in', some).execute()))
    if (lead.shared === 1 && lead.erased === 0)
      await count(leadCaptured.emit(ctx, { event: await eventOf(lead.event_id), lead }));

  // member.joined / member.left: a member who became active, or an active one who left (someone
  // declined or withdrawing while waiting was never a member), as the live use cases send them.
  const members = await nowAndBefore(report.tables.get('community_members'), (some) =>
    db.selectFrom('community_members').selectAll().where('id', 'in', some).execute(),
  );
  for (const { row, before } of members) {
    const emitter =
      row.status === 'active' && before?.status !== 'active'
        ? memberJoined
        : row.status === 'left' && before?.status === 'active'
          ? memberLeft
          : null;
    if (!emitter) continue;
    const community = await db
      .selectFrom('communities')
      .selectAll()
      .where('id', '=', row.community_id)
      .executeTakeFirstOrThrow();
    await count(emitter.emit(ctx, { community, member: row }));
  }

  sent += await emitShiftMessages(ctx, report, eventOf);

  // feedback.given: each new survey answer and session rating.
  const responses = report.tables.get('survey_responses')?.created ?? [];
  for (const answer of await inChunks(responses, (some) =>
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
    await count(feedbackGiven.emit(ctx, { event: await eventOf(answer.event_id), answer }));
  const ratings = report.tables.get('session_ratings')?.created ?? [];
  for (const rating of await inChunks(ratings, (some) =>
    db.selectFrom('session_ratings').selectAll().where('id', 'in', some).execute(),
  ))
    await count(feedbackGiven.emit(ctx, { event: await eventOf(rating.event_id), rating }));

  // claim.*: a claim in (or moved to) submitted, approved or paid.
  const claims = await nowAndBefore(report.tables.get('expense_claims'), (some) =>
    db.selectFrom('expense_claims').selectAll().where('id', 'in', some).execute(),
  );
  for (const { row, before } of claims) {
    const emitter = claimStatusEmitters[row.status];
    if (before?.status === row.status || !emitter) continue;
    await count(emitter.emit(ctx, { event: await eventOf(row.event_id), claim: row }));
  }

  // stay.*: requested, assigned or cancelled as its status moves there; changed when its details do.
  const stays = await nowAndBefore(report.tables.get('stays'), (some) =>
    db.selectFrom('stays').selectAll().where('id', 'in', some).execute(),
  );
  for (const { row, before } of stays) {
    const emitter =
      before === null
        ? row.status === 'cancelled'
          ? null
          : stayStatusEmitters[row.status]
        : before.status !== row.status
          ? stayStatusEmitters[row.status]
          : row.status === 'cancelled'
            ? null
            : stayChanged;
    if (emitter) await count(emitter.emit(ctx, { event: await eventOf(row.event_id), stay: row }));
  }

  // travel.changed: a journey booked or changed.
  const journeys = await nowAndBefore(report.tables.get('travel'), (some) =>
    db.selectFrom('travel').selectAll().where('id', 'in', some).execute(),
  );
  for (const { row } of journeys)
    await count(travelChanged.emit(ctx, { event: await eventOf(row.event_id), travel: row }));

  // certificate.issued and content.published: new ones.
  for (const certificate of await inChunks(report.tables.get('certificates')?.created ?? [], (some) =>
    db.selectFrom('certificates').selectAll().where('id', 'in', some).execute(),
  ))
    await count(certificateIssued.emit(ctx, { event: await eventOf(certificate.event_id), certificate }));
  for (const content of await inChunks(report.tables.get('published_content')?.created ?? [], (some) =>
    db.selectFrom('published_content').selectAll().where('id', 'in', some).execute(),
  ))
    await count(contentPublished.emit(ctx, { event: await eventOf(content.event_id), content }));
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
    ...changes.added.map((r) => ({ emitter: shiftSignedUp, row: r })),
    ...changes.removed.map((r) => ({ emitter: shiftDropped, row: r })),
  ];
  const shiftIds = [...new Set(moves.map((m) => String(m.row.shift_id)))];
  const crewIds = [...new Set(moves.map((m) => String(m.row.crew_member_id)))];
  const shifts = await rowsById(shiftQuery(db).where('shifts.id', 'in', shiftIds).execute());
  const crew = await rowsById(crewMemberQuery(db).where('crew_members.id', 'in', crewIds).execute());
  const onShifts = await crewOnShifts(db, shiftIds);
  const shiftsOf = await shiftsOfCrew(db, crewIds);
  for (const { emitter, row } of moves) {
    const shift = shifts.get(String(row.shift_id))!;
    const crewMember = crew.get(String(row.crew_member_id))!;
    await emitter.emit(ctx, {
      event: await eventOf(shift.event_id),
      shift,
      shiftCrewIds: onShifts.get(shift.id) ?? [],
      crewMember,
      memberShiftIds: shiftsOf.get(crewMember.id) ?? [],
    });
  }
  return moves.length;
}
