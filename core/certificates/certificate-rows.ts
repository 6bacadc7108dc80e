// Issuing a certificate, and finding one at its event. Who may hold which kind: attendance needs the
// ticket checked in; speaker needs a speaker of the event with the ticket holder's email; crew a
// crew member of the event holding this ticket (or with its email). One live certificate of a kind
// per ticket: the unique index certificates_one_live_per_kind decides between concurrent issues.
import { sql } from 'kysely';
import type { CertificateRow, EventRow } from '../../db/schema';
import type { CertificateKind } from '../../db/values';
import type { Ctx } from '../platform/context';
import { newId } from '../platform/ids';
import { problem } from '../platform/problems';
import { madeNow } from '../platform/storage/change-stamp';
import { certificateIssued } from './certificate-messages';
import { newVerificationCode } from './verification-code';

export async function loadCertificate(ctx: Ctx, eventId: string, certificateId: string) {
  const row = await ctx.db
    .selectFrom('certificates')
    .selectAll()
    .where('id', '=', certificateId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  if (!row) throw problem('notFound', `No certificate ${certificateId} at this event.`);
  return row;
}

interface Holder {
  id: string;
  email: string | null;
  status: string;
  checked_in_utc: string | null;
}

/** Why the ticket cannot hold a certificate of this kind, or null when it can. */
export async function ineligibility(
  ctx: Ctx,
  eventId: string,
  holder: Holder,
  kind: CertificateKind,
): Promise<string | null> {
  if (holder.status !== 'active') return 'The ticket is cancelled.';
  if (kind === 'attendance')
    return holder.checked_in_utc === null
      ? 'The ticket was never checked in: an attendance certificate goes only to someone who came.'
      : null;
  const email = holder.email?.toLowerCase() ?? null;
  if (kind === 'speaker') {
    const speaker =
      email &&
      (await ctx.db
        .selectFrom('speakers')
        .select('id')
        .where('event_id', '=', eventId)
        .where('erased', '=', 0)
        .where(sql`lower(email)`, '=', email)
        .executeTakeFirst());
    return speaker ? null : "No speaker of this event has the ticket holder's email.";
  }
  let crew = ctx.db
    .selectFrom('crew_members')
    .select('id')
    .where('event_id', '=', eventId)
    .where('erased', '=', 0);
  crew = crew.where((eb) =>
    email
      ? eb.or([eb('attendee_id', '=', holder.id), eb(sql`lower(email)`, '=', email)])
      : eb('attendee_id', '=', holder.id),
  );
  return (await crew.executeTakeFirst()) ? null : 'The ticket holder is not on the crew of this event.';
}

/**
 * Issues one certificate and sends certificate.issued in the same transaction; null when the
 * ticket already holds a live one of the kind (perhaps issued a moment ago by another call).
 */
export async function insertCertificate(
  ctx: Ctx,
  event: EventRow,
  holder: Holder & { first_name: string | null; last_name: string | null; erased: 0 | 1 },
  kind: CertificateKind,
): Promise<CertificateRow | null> {
  const stamp = await madeNow(ctx);
  const row: CertificateRow = {
    id: newId(),
    workspace_id: ctx.actor.workspaceId,
    event_id: event.id,
    attendee_id: holder.id,
    kind,
    first_name: holder.first_name,
    last_name: holder.last_name,
    email: holder.email,
    erased: holder.erased,
    issued_utc: stamp.created_utc,
    verification_code: newVerificationCode(),
    revoked_utc: null,
    ...stamp,
  };
  const made = await ctx.db
    .insertInto('certificates')
    .values(row)
    .onConflict((oc) => oc.columns(['attendee_id', 'kind']).where('revoked_utc', 'is', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!made) return null;
  await certificateIssued.emit(ctx, { event, certificate: row });
  return row;
}

/** The live certificate of a kind the ticket holds, if any. */
export async function liveCertificate(ctx: Ctx, attendeeId: string, kind: CertificateKind) {
  return ctx.db
    .selectFrom('certificates')
    .select('id')
    .where('attendee_id', '=', attendeeId)
    .where('kind', '=', kind)
    .where('revoked_utc', 'is', null)
    .executeTakeFirst();
}
