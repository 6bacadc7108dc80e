import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { int32, uuid } from '../platform/schemas';
import { insertCertificate } from './certificate-rows';

export const issueAttendanceCertificates = defineOperation({
  name: 'issueAttendanceCertificates',
  title: 'Issue attendance certificates to everyone who came',
  description:
    'Issues an attendance certificate to every checked-in ticket holding none yet, sending certificate.issued for each; run again, it issues only to those checked in since. Answers how many were issued. Needs certificates:write.',
  scope: 'certificates:write',
  effect: 'write',
  repeatable: true,
  idempotent: true,
  extension: true,
  activity: {
    resourceType: 'event',
    resourceId: (input) => input.eventId,
    summary: (_input, out) => `${out.issued} attendance certificates`,
  },
  problems: [],
  input: v.object({ eventId: uuid('The event id.') }),
  output: v.object({
    eventId: uuid('The event id.'),
    issued: int32('Certificates issued by this call.'),
    checkedIn: int32('Tickets checked in (not cancelled): each now holds an attendance certificate.'),
  }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const holders = await ctx.db
      .selectFrom('attendees')
      .select(['id', 'email', 'status', 'checked_in_utc', 'first_name', 'last_name', 'erased'])
      .where('event_id', '=', event.id)
      .where('status', '=', 'active')
      .where('checked_in_utc', 'is not', null)
      .orderBy('checked_in_utc')
      .orderBy('id')
      .execute();
    const held = new Set(
      (
        await ctx.db
          .selectFrom('certificates')
          .select('attendee_id')
          .where('event_id', '=', event.id)
          .where('kind', '=', 'attendance')
          .where('revoked_utc', 'is', null)
          .execute()
      ).map((c) => c.attendee_id),
    );
    let issued = 0;
    // A concurrent call may issue some of these first: the unique index skips those.
    for (const holder of holders)
      if (!held.has(holder.id) && (await insertCertificate(ctx, event, holder, 'attendance'))) issued += 1;
    return { eventId: event.id, issued, checkedIn: holders.length };
  },
});
