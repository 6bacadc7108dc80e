// Registration: free tickets for 1 to 50 people in one order, all or nothing. Checked first
// (registration-input.ts), then the rows written (registration-order.ts), attendee.registered sent
// for each, and the places taken last (registration-places.ts): a refusal undoes the rest. A ticket
// type requiring approval makes the order requested instead (needs-approval.ts): its places held, no
// ticket valid and nothing sent but the buyer's "request received" until the organiser approves it.
import * as v from 'valibot';
import { queueRequestReceived, queueTicketConfirmations } from '../mail';
import { documentedAsRequired } from '../platform/docs/json-schema';
import { defineOperation } from '../platform/pipeline/operation';
import { uuid } from '../platform/schemas';
import { usableDiscountCode } from '../sales';
import { recordShareRegistration } from '../sharekit';
import { attendeeRegistered } from './attendee-messages';
import { attendeeSchema, attendeeView } from './attendee-view';
import { needsApproval } from './needs-approval';
import { checkRegistration, newAttendeeSchema, optionalText, refusePricedAddOns } from './registration-input';
import { writeRegistration } from './registration-order';
import { refuseFullAtRead, takeRegistrationPlacesLast } from './registration-places';
import { codeUsesOf, freePrices } from './registration-prices';

export { maxAttendeesPerRequest, newAttendeeSchema } from './registration-input';

export const registerAttendees = defineOperation({
  name: 'registerAttendees',
  title: 'Register attendees',
  description:
    'Issues free tickets to 1 to 50 people in one order; hidden and code-only types may be used. A type needing approval makes the order requested (places held, not valid yet). All or nothing: refused soldOut, invalid or registrationRefused. Needs attendees:write.',
  scope: 'attendees:write',
  effect: 'write',
  activity: {
    resourceType: 'order',
    resourceId: (_input, order) => order.orderId,
    summary: (_input, order) => `${order.attendees.length} attendee(s), ${order.reference}`,
  },
  problems: ['invalid', 'soldOut', 'unknownTicket', 'empty', 'tooMany', 'registrationRefused'],
  idempotent: true,
  input: v.object({
    eventId: uuid('The event id.'),
    // Required for the client; none sent is refused as `empty`, more than 50 as `tooMany`.
    attendees: documentedAsRequired(
      v.optional(v.pipe(v.array(newAttendeeSchema), v.description('1 to 50 people.'))),
    ),
    language: optionalText("Default: the event's first."),
    buyerName: optionalText("Default: the first attendee's."),
    buyerEmail: optionalText("Default: the first attendee's."),
    buyerCompany: optionalText('Optional.'),
    discountCode: optionalText(
      "Tessera extension: a discount code of the event (any case) the registration uses, as a sponsor's or a partner's code for free places: its uses are counted in tickets within its limit, with the same rules as an order's (registrationRefused with reason discountCodeUnknown, discountCodeOff, discountCodeNotYetValid, discountCodeExpired, discountCodeNotApplicable or discountCodeUsedUp). The tickets stay free.",
    ),
    shareRef: optionalText(
      "Tessera extension: the ref of the share link the people came through (the code a share link's address hands on to the event page). Their tickets count for the link's sharer on the share-kit leaderboard. A ref that names no live link of the event is ignored: the registration goes ahead and nothing is counted.",
    ),
  }),
  output: v.object({
    orderId: uuid('The order made.'),
    reference: v.pipe(v.string(), v.length(6), v.description('Six-character order reference.')),
    attendees: v.array(attendeeSchema),
  }),
  async handler(ctx, input) {
    const registration = await checkRegistration(ctx, input);
    refusePricedAddOns(registration);
    refuseFullAtRead(registration);
    const code =
      input.discountCode === undefined
        ? undefined
        : await usableDiscountCode(ctx, registration.event.id, input.discountCode);
    const codeUses = code ? codeUsesOf(registration, code) : 0;
    const requested = needsApproval(registration);
    const { orderId, reference, joined } = await writeRegistration(
      ctx,
      registration,
      input,
      code || requested
        ? {
            status: requested ? 'requested' : 'free',
            prices: freePrices(registration, codeUses),
            discountCodeId: code?.id ?? null,
            paymentMethod: null,
            paymentNote: null,
          }
        : undefined,
    );
    if (input.shareRef !== undefined)
      await recordShareRegistration(ctx, registration.event, input.shareRef, joined);
    if (requested) await queueRequestReceived(ctx, registration.event.id, orderId);
    else {
      await attendeeRegistered.emitEach(
        ctx,
        joined.map((attendee) => ({ event: registration.event, attendee })),
      );
      await queueTicketConfirmations(
        ctx,
        registration.event.id,
        joined.map((attendee) => attendee.id),
      );
    }
    await takeRegistrationPlacesLast(ctx, registration, code && { row: code, uses: codeUses });
    return {
      orderId,
      reference,
      attendees: joined.map((row) => attendeeView(ctx.actor, row, ctx.request.origin)),
    };
  },
});
