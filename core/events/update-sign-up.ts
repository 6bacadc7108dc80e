import * as v from 'valibot';
import { loadEvent, loadEventForChange } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import { heldRow } from '../platform/pipeline/tagged-row';
import { multiLine, uuid } from '../platform/schemas';
import { loadSignUp, signUpSchema } from './sign-up-settings';

export const updateSignUp = defineOperation({
  name: 'updateSignUp',
  title: 'Change sign-up settings',
  description:
    "Switches the event's public registration form on or off, sets the payment instructions shown to buyers paying by bank transfer, whether attendees are sent e-mail, and waiting-list offer hours. Needs events:write.",
  scope: 'events:write',
  effect: 'write',
  changesEvent: true,
  extension: true,
  repeatable: true,
  etag: true,
  ifMatch: {
    hold: heldRow('events', (input) => input.eventId),
    async current(ctx, input) {
      return loadSignUp(ctx.db, await loadEvent(ctx, input.eventId));
    },
  },
  activity: { resourceType: 'event', resourceId: (input) => input.eventId, summary: () => 'sign-up' },
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    publicForm: v.optional(v.pipe(v.boolean(), v.description('The public page takes registrations.'))),
    paymentInstructions: v.optional(
      v.nullable(
        v.pipe(
          v.string(),
          multiLine,
          v.trim(),
          v.minLength(1),
          v.maxLength(2000),
          v.description('Shown to buyers paying by bank transfer; null clears it.'),
        ),
      ),
    ),
    sendEmails: v.optional(v.pipe(v.boolean(), v.description('Attendees are sent e-mail.'))),
    waitingListOfferHours: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(720),
        v.description(
          'Tessera extension: hours a waiting-list offer holds its place (offers made from now on).',
        ),
      ),
    ),
  }),
  output: signUpSchema,
  async handler(ctx, input) {
    // The event's row locked for the change: the settings are one row an event, perhaps not written
    // yet, and a change writes all of it back from what it read: of two at once, one was lost.
    const event = await loadEventForChange(ctx, input.eventId);
    const current = await loadSignUp(ctx.db, event);
    const row = {
      public_form: (input.publicForm ?? current.publicForm) ? 1 : 0,
      payment_instructions:
        input.paymentInstructions === undefined ? current.paymentInstructions : input.paymentInstructions,
      send_emails: (input.sendEmails ?? current.sendEmails) ? 1 : 0,
      waiting_list_offer_hours: input.waitingListOfferHours ?? current.waitingListOfferHours,
      updated_utc: ctx.clock.now().toISOString(),
    } as const;
    await ctx.db
      .insertInto('event_sign_up')
      .values({ event_id: event.id, workspace_id: event.workspace_id, ...row })
      .onConflict((oc) => oc.column('event_id').doUpdateSet(row))
      .execute();
    return loadSignUp(ctx.db, event);
  },
});
