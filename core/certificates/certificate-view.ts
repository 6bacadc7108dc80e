// The Certificate resource: what certificate.issued carries (certificateSchema, unredacted there: the
// dispatcher redacts per subscriber), and the API's view of it, which adds the event, the public
// verification address and whether it was revoked. Names are personal data: null without
// people:read and once the holder erased their data.
import * as v from 'valibot';
import type { CertificateRow } from '../../db/schema';
import { certificateKinds } from '../../db/values';
import type { Ctx } from '../platform/context';
import { applyPersonalData, declarePersonal } from '../platform/pipeline/personal-data';
import { dateTime, personalDataSchema, text, uuid } from '../platform/schemas';

export const certificatePersonal = declarePersonal({
  resource: 'certificate',
  idField: 'certificateId',
  table: 'certificates',
  fields: { firstName: 'first_name', lastName: 'last_name' },
  storedOnly: ['email'],
  emailColumn: 'email',
  attendeeColumn: 'attendee_id',
});

export const certificateSchema = v.object({
  certificateId: uuid('The certificate id.'),
  attendeeId: uuid('The attendee it was issued to.'),
  kind: v.picklist(certificateKinds),
  firstName: v.nullable(text('Personal data.')),
  lastName: v.nullable(text('Personal data.')),
  issuedUtc: dateTime('When it was issued.'),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

/** The fields a certificate's message and its API view share. */
const certificateFields = (row: CertificateRow) => ({
  certificateId: row.id,
  attendeeId: row.attendee_id,
  kind: row.kind,
  firstName: row.first_name,
  lastName: row.last_name,
  issuedUtc: row.issued_utc,
});

/** A certificate unredacted, as certificate.issued carries it. */
export function certificateView(row: CertificateRow): v.InferOutput<typeof certificateSchema> {
  return applyPersonalData('unredacted', certificateFields(row), certificatePersonal, row.erased === 1);
}

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
      ...certificateFields(row),
      eventId: row.event_id,
      verificationUrl: verificationUrl(ctx.request.origin, row.verification_code),
      revokedUtc: row.revoked_utc,
      updatedUtc: row.updated_utc,
    },
    certificatePersonal,
    row.erased === 1,
  );
}
