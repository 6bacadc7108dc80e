import * as v from 'valibot';
import { certificateKinds } from '../../db/values';
import { keysetOf, positionOfRow } from '../platform/pipeline/list-keyset';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { applyPlan, cursorFields, finishPage, pageOf, planPage, readPage } from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { certificateApiSchema, certificateApiView } from './certificate-view';

export const listCertificates = defineOperation({
  name: 'listCertificates',
  title: 'List certificates',
  description:
    "Lists an event's certificates, revoked ones too (revokedUtc), oldest change first, each with its public verification address; filter by attendee or kind. Names need people:read. Needs attendees:read.",
  scope: 'attendees:read',
  effect: 'read',
  extension: true,
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    attendeeId: v.optional(uuid('Only the certificates of this ticket.')),
    kind: v.optional(v.pipe(v.picklist(certificateKinds), v.description('Only this kind.'))),
    ...cursorFields,
  }),
  output: pageOf(certificateApiSchema),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const plan = planPage(ctx, input, {
      list: 'certificates',
      filters: { eventId: event.id, attendeeId: input.attendeeId, kind: input.kind },
    });
    let query = ctx.db.selectFrom('certificates').selectAll().where('event_id', '=', event.id);
    if (input.attendeeId) query = query.where('attendee_id', '=', input.attendeeId);
    if (input.kind) query = query.where('kind', '=', input.kind);
    const rows = await readPage(ctx.db, applyPlan(query, plan, keysetOf('certificates')));
    return finishPage(ctx, plan, rows, positionOfRow, (row) => certificateApiView(ctx, row));
  },
});
