import * as v from 'valibot';
import { certificateKinds } from '../../db/values';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { uuid } from '../platform/schemas';
import { ineligibility, insertCertificate, liveCertificate } from './certificate-rows';
import { certificateApiSchema, certificateApiView } from './certificate-view';

export const issueCertificate = defineOperation({
  name: 'issueCertificate',
  title: 'Issue a certificate',
  description:
    'Issues a certificate to a ticket holder: attendance (checked in), speaker (a speaker has their email) or crew (on the crew), with a public verification address. Others are refused. Sends certificate.issued. Needs certificates:write.',
  scope: 'certificates:write',
  effect: 'write',
  idempotent: true,
  extension: true,
  etag: true,
  activity: {
    resourceType: 'certificate',
    resourceId: (_input, made) => made.certificateId,
    summary: (_input, made) => made.kind,
  },
  problems: ['attendeeNotFound', 'notEligibleForCertificate', 'certificateExists'],
  input: v.object({
    eventId: uuid('The event id.'),
    attendeeId: uuid('The ticket holder it is for.'),
    kind: v.optional(
      v.pipe(v.picklist(certificateKinds), v.description('attendance (the default), speaker or crew.')),
    ),
  }),
  output: certificateApiSchema,
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const kind = input.kind ?? 'attendance';
    const holder = await ctx.db
      .selectFrom('attendees')
      .select(['id', 'email', 'status', 'checked_in_utc', 'first_name', 'last_name', 'erased'])
      .where('id', '=', input.attendeeId)
      .where('event_id', '=', event.id)
      .executeTakeFirst();
    if (!holder) throw problem('attendeeNotFound', `No attendee ${input.attendeeId} at this event.`);
    const why = await ineligibility(ctx, event.id, holder, kind);
    if (why) throw problem('notEligibleForCertificate', why);
    const made = await insertCertificate(ctx, event, holder, kind);
    if (!made) {
      const held = await liveCertificate(ctx, holder.id, kind);
      throw problem(
        'certificateExists',
        `The attendee already holds a ${kind} certificate (${held?.id}); revoke it first to issue a new one.`,
        { certificateId: held?.id },
      );
    }
    return certificateApiView(ctx, made);
  },
});
