// What anyone sees at a certificate's public address /v/{code}, without a key: the event, the kind,
// the date it was issued and the holder's name (gone once the holder erased their data), or that it
// was revoked. The random code is the only way in (no id, no workspace).
import { DateTime } from 'luxon';
import type { Db } from '../../db/connect';
import type { CertificateKind } from '../../db/values';
import { holderName } from '../platform/holder-name';
import { venueTimeRange } from '../platform/time';
import { verificationCodePattern } from './verification-code';

export interface CertificateCheck {
  valid: boolean;
  kind: CertificateKind;
  event: { name: string; when: string; timeZone: string; url: string | null };
  /** The holder's name; null once erased. */
  holder: string | null;
  erased: boolean;
  issuedUtc: string;
  /** The day issued, in the venue's zone, for people: "1 May 2027". */
  issuedOn: string;
  revokedUtc: string | null;
  /** The day revoked, as issuedOn says its day. */
  revokedOn: string | null;
}

/** A day in the venue's zone, for people: "1 May 2027". */
const dayInVenue = (utc: string, zone: string) =>
  DateTime.fromISO(utc, { zone: 'utc' }).setZone(zone).setLocale('en-GB').toFormat('d LLLL yyyy');

export async function verifyCertificate(
  db: Db,
  origin: string,
  code: string,
): Promise<CertificateCheck | null> {
  if (!verificationCodePattern.test(code)) return null;
  const row = await db
    .selectFrom('certificates')
    .innerJoin('events', 'events.id', 'certificates.event_id')
    .select([
      'certificates.kind',
      'certificates.first_name',
      'certificates.last_name',
      'certificates.erased',
      'certificates.issued_utc',
      'certificates.revoked_utc',
      'events.name as event_name',
      'events.slug',
      'events.status',
      'events.starts_utc',
      'events.ends_utc',
      'events.time_zone',
    ])
    .where('certificates.verification_code', '=', code)
    .executeTakeFirst();
  if (!row) return null;
  const erased = row.erased === 1;
  return {
    valid: row.revoked_utc === null,
    kind: row.kind,
    event: {
      name: row.event_name,
      when: venueTimeRange(row.starts_utc, row.ends_utc, row.time_zone),
      timeZone: row.time_zone,
      url: row.status === 'published' ? `${origin}/e/${row.slug}` : null,
    },
    holder: holderName(row),
    erased,
    issuedUtc: row.issued_utc,
    issuedOn: dayInVenue(row.issued_utc, row.time_zone),
    revokedUtc: row.revoked_utc,
    revokedOn: row.revoked_utc === null ? null : dayInVenue(row.revoked_utc, row.time_zone),
  };
}
