// The public Certificate resource: what certificate.issued carries (core/webhooks/message-resources.ts)
// plus the event, the public verification address and whether it was revoked. Names are personal
// data: null without people:read and once the holder erased their data.
import * as v from 'valibot';
import type { CertificateRow } from '../../db/schema';
import type { Ctx } from '../platform/context';
import { applyPersonalData } from '../platform/pipeline/personal-data';
import { dateTime, uuid } from '../platform/schemas';
import { certificatePersonal, certificateSchema } from '../webhooks/message-resources';

export const certificateApiSchema = v.object({
  ...certificateSchema.entries,
  eventId: uuid('The event id.'),
  verificationUrl: v.pipe(
    v.string(),
    v.url(),
    v.description(
      'Public page anyone may open, without a key, to check the certificate: event, kind, date and holder (until erased), or that it was revoked.',
    ),
  ),
  revokedUtc: v.nullable(dateTime('When it was revoked; null while it stands.')),
  updatedUtc: dateTime('Last change; pass the newest as updatedSince.'),
});

export type CertificateView = v.InferOutput<typeof certificateApiSchema>;

export const verificationUrl = (origin: string, code: string) => `${origin}/v/${code}`;

export function certificateApiView(ctx: Ctx, row: CertificateRow): CertificateView {
  return applyPersonalData(
    ctx.actor,
    {
      certificateId: row.id,
      attendeeId: row.attendee_id,
      kind: row.kind,
      firstName: row.first_name,
      lastName: row.last_name,
      issuedUtc: row.issued_utc,
      eventId: row.event_id,
      verificationUrl: verificationUrl(ctx.request.origin, row.verification_code),
      revokedUtc: row.revoked_utc,
      updatedUtc: row.updated_utc,
    },
    certificatePersonal,
    row.erased === 1,
  );
}
