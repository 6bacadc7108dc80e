// The e-mail of a waiting-list offer: a place of a sold-out ticket type came free and is held for
// the person until the offer runs out; the link takes them to the form that registers them in it.
// Queued in the transaction that made the offer (core/waiting-list), once per entry.
import { DateTime } from 'luxon';
import type { Ctx } from '../platform/context';
import { oneLineOf, oneLineOrNull } from '../platform/shown-text';
import { venueTimeRange } from '../platform/time';
import { mailHtml, mailText } from './mail-layout';
import type { MailContent } from './queue-mail';
import { queueMail } from './queue-mail';
import { mailableEvent, sender } from './ticket-mails';

export interface WaitingOfferFacts {
  entryId: string;
  recipient: string;
  firstName: string | null;
  ticketTypeName: string;
  /** The offer's page, /e/{slug}/waiting/{token}. */
  address: string;
  expiresUtc: string;
}

/** Queues the offer's e-mail; false when the event sends none (e-mail off, or its sign-up says no). */
export async function queueWaitingListOffer(
  ctx: Ctx,
  eventId: string,
  offer: WaitingOfferFacts,
): Promise<boolean> {
  const event = await mailableEvent(ctx, eventId);
  if (!event) return false;
  return queueMail(ctx, sender(ctx), {
    event,
    causeKind: 'waitingListOffer',
    causeId: offer.entryId,
    attendeeId: null,
    orderId: null,
    recipient: offer.recipient,
    content: waitingOfferMail(event, offer),
  });
}

/** The public origin the offer's link is on (the service's public URL, else the caller's). */
export function offerOrigin(ctx: Ctx): string {
  return ctx.services.mail?.publicOrigin ?? ctx.request.origin;
}

function waitingOfferMail(
  stored: { name: string; starts_utc: string; ends_utc: string; time_zone: string },
  offer: WaitingOfferFacts,
): MailContent {
  const name = oneLineOf(stored.name);
  const firstName = oneLineOrNull(offer.firstName);
  const until = DateTime.fromISO(offer.expiresUtc, { zone: 'utc' })
    .setZone(stored.time_zone)
    .setLocale('en-GB')
    .toFormat('ccc d LLL yyyy, HH:mm');
  const subject = `A place for you: ${name}`;
  const blocks = [
    { kind: 'paragraph' as const, text: firstName ? `Hello ${firstName},` : 'Hello,' },
    {
      kind: 'paragraph' as const,
      text: `A place of ${oneLineOf(offer.ticketTypeName)} for ${name} has come free, and you are next on the waiting list. It is held for you until ${until} (${stored.time_zone}).`,
    },
    {
      kind: 'facts' as const,
      rows: [
        ['Event', name],
        [
          'When',
          `${venueTimeRange(stored.starts_utc, stored.ends_utc, stored.time_zone)} (${stored.time_zone})`,
        ],
        ['Ticket', oneLineOf(offer.ticketTypeName)],
        ['Held until', `${until} (${stored.time_zone})`],
      ] as [string, string][],
    },
    { kind: 'link' as const, label: 'Take your place', url: offer.address },
    {
      kind: 'paragraph' as const,
      text: 'If you no longer want it, do nothing: once the time is up, the place goes to the next person in line.',
    },
  ];
  return { subject, text: mailText(blocks), html: mailHtml(subject, blocks), attachments: [] };
}
