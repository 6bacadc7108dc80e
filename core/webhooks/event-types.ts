// The one registry of webhook event types. Each of the spec's 22, and each Tessera extension
// (marked: order.approved, order.declined), declares, once: when it is sent, the
// scopes a key needs to subscribe to it (through /hooks or an endpoint), the schema of its data,
// and the personal resources in that data (redacted at delivery for a key without people:read).
// The catalogue (GET /webhooks/event-types), subscription checks and the dispatcher read it.
import * as v from 'valibot';
import { type WebhookEventType, webhookEventTypes } from '../../db/values';
import { attendeePersonal, attendeeSchema } from '../attendees';
import { certificatePersonal, certificateSchema } from '../certificates';
import { checkInSchema } from '../checkin';
import { communityRefSchema, memberPersonal, memberSchema } from '../communities';
import { crewMemberPersonal, crewMemberSchema, shiftSchema } from '../crew';
import { eventRefSchema } from '../events';
import { claimPersonal, claimSchema } from '../finance';
import { stayPersonal, staySchema, travelPersonal, travelSchema } from '../logistics';
import { orderPersonal, orderSchema } from '../orders';
import type { PersonalFields } from '../platform/pipeline/personal-data';
import { dateTime } from '../platform/schemas';
import type { Scope } from '../platform/scopes';
import { contentSchema } from '../programme';
import { leadItemSchema, leadPersonal } from '../sponsors';
import { feedbackSchema } from '../surveys';

export interface EventTypeDefinition {
  type: WebhookEventType;
  summary: string;
  /** When it is sent and what its data carries. */
  description: string;
  /** What a key needs to subscribe (besides webhooks:write, or webhooks:read for older keys). */
  scopes: Scope[];
  data: v.ObjectSchema<v.ObjectEntries, undefined>;
  /** The personal resources its data may carry. */
  personal: PersonalFields<string, string>[];
  /** A type beyond the spec's 22: its description says so, and the OpenAPI document marks it. */
  extension?: true;
}

const withEvent = <E extends v.ObjectEntries>(entries: E) => v.object({ event: eventRefSchema, ...entries });
const attendeeData = withEvent({ attendee: attendeeSchema });
const stayData = withEvent({ stay: staySchema });
const claimData = withEvent({ claim: claimSchema });
const memberData = v.object({ community: communityRefSchema, member: memberSchema });
const shiftData = withEvent({ shift: shiftSchema, crewMember: crewMemberSchema });
const people = 'people:read' as const;

const definitions: Record<WebhookEventType, Omit<EventTypeDefinition, 'type'>> = {
  'attendee.registered': {
    summary: 'An attendee registered',
    description:
      'Sent when a registration is created: somebody holds a ticket that lets them in (a free registration, a paid order once it is paid, or a ticket the organiser issued). data = { event, attendee }.',
    scopes: ['attendees:read', people],
    data: attendeeData,
    personal: [attendeePersonal],
  },
  'attendee.updated': {
    summary: "An attendee's details were corrected",
    description:
      'Sent when a name, company, job title or answers were corrected (badge desk or import); not for check-in, payment or cancellation. data = { event, attendee }.',
    scopes: ['attendees:read', people],
    data: attendeeData,
    personal: [attendeePersonal],
  },
  'attendee.cancelled': {
    summary: 'A ticket was cancelled',
    description:
      'Sent when a ticket was cancelled by the attendee, the organiser or the API. data = { event, attendee } with the attendee as cancelled.',
    scopes: ['attendees:read', people],
    data: attendeeData,
    personal: [attendeePersonal],
  },
  'attendee.erased': {
    summary: 'An attendee erased their data',
    description:
      'Sent once for each ticket of a person who deleted their data: drop what you keep about them. data = { event, attendee } with nothing personal (personalData erased).',
    scopes: ['attendees:read'],
    data: attendeeData,
    personal: [attendeePersonal],
  },
  'order.paid': {
    summary: 'An order was paid',
    description:
      'Sent when payment of an order is confirmed (card, bank transfer, on account). data = { event, order }; its tickets are sent as attendee.registered as well.',
    scopes: ['orders:read', people],
    data: withEvent({ order: orderSchema }),
    personal: [orderPersonal],
  },
  'order.approved': {
    summary: 'A requested order was approved',
    description:
      'Tessera extension: sent when the organiser approves an order that waited for approval (status requested). data = { event, order } with the order as approved: free (its tickets valid, sent as attendee.registered as well) or awaiting payment (transfer).',
    scopes: ['orders:read', people],
    data: withEvent({ order: orderSchema }),
    personal: [orderPersonal],
    extension: true,
  },
  'order.declined': {
    summary: 'A requested order was declined',
    description:
      'Tessera extension: sent when the organiser declines an order that waited for approval: its places are released and its tickets cancelled (each sent as attendee.cancelled, as any cancelled ticket is). data = { event, order } with the order as declined, its reason given.',
    scopes: ['orders:read', people],
    data: withEvent({ order: orderSchema }),
    personal: [orderPersonal],
    extension: true,
  },
  'checkin.created': {
    summary: 'Someone was let in or out at a door',
    description:
      'Sent for every scan that let someone in (welcome, again) or out, live or uploaded from an offline scanner; refused scans are not sent. data = { event, checkIn, attendee }.',
    scopes: ['checkins:read', 'attendees:read', people],
    data: withEvent({ checkIn: checkInSchema, attendee: attendeeSchema }),
    personal: [attendeePersonal],
  },
  'feedback.given': {
    summary: 'Feedback was given',
    description:
      'Sent when a survey is answered or a session rated. data = { event, feedback }; it never says who gave it.',
    scopes: ['surveys:read'],
    data: withEvent({ feedback: feedbackSchema }),
    personal: [],
  },
  'lead.captured': {
    summary: 'A sponsor captured a lead',
    description:
      "Sent when a sponsor's staff scan a visitor who agreed to share their details. data = { event, sponsor, lead }, the visitor's details only as far as shared.",
    scopes: ['sponsors:read', people],
    data: withEvent(leadItemSchema.entries),
    personal: [leadPersonal],
  },
  'certificate.issued': {
    summary: 'A certificate was issued',
    description:
      'Sent when a certificate of attendance (or of speaking or crewing) is issued. data = { event, certificate }.',
    scopes: ['attendees:read', people],
    data: withEvent({ certificate: certificateSchema }),
    personal: [certificatePersonal],
  },
  'content.published': {
    summary: 'Content was published',
    description:
      'Sent when slides, a recording, an article or photos of the event are published. data = { event, content }.',
    scopes: ['events:read'],
    data: withEvent({ content: contentSchema }),
    personal: [],
  },
  'stay.requested': {
    summary: 'A stay was requested',
    description:
      'Sent when a hotel stay is requested for an attendee, speaker or crew member. data = { event, stay }.',
    scopes: ['attendees:read', people],
    data: stayData,
    personal: [stayPersonal],
  },
  'stay.assigned': {
    summary: 'A stay was assigned',
    description: 'Sent when a requested stay gets its hotel (and room). data = { event, stay }.',
    scopes: ['attendees:read', people],
    data: stayData,
    personal: [stayPersonal],
  },
  'stay.changed': {
    summary: 'A stay changed',
    description:
      'Sent when the dates, hotel or room of a requested or assigned stay change (its status staying the same). data = { event, stay }.',
    scopes: ['attendees:read', people],
    data: stayData,
    personal: [stayPersonal],
  },
  'stay.cancelled': {
    summary: 'A stay was cancelled',
    description: 'Sent when a stay is cancelled. data = { event, stay } with the stay as cancelled.',
    scopes: ['attendees:read', people],
    data: stayData,
    personal: [stayPersonal],
  },
  'member.joined': {
    summary: 'Someone joined a community',
    description:
      'Sent when someone becomes a member of a community (at once, or when the organiser approves them where joining needs approval). data = { community, member }.',
    scopes: ['communities:read', people],
    data: memberData,
    personal: [memberPersonal],
  },
  'member.left': {
    summary: 'Someone left a community',
    description:
      'Sent when an active member leaves a community or is removed (not when a request to join is declined or withdrawn). data = { community, member } with the member as left.',
    scopes: ['communities:read', people],
    data: memberData,
    personal: [memberPersonal],
  },
  'travel.changed': {
    summary: 'Travel changed',
    description:
      'Sent when a journey booked for a speaker or crew member is booked, changed or cancelled. data = { event, travel }.',
    scopes: ['attendees:read', people],
    data: withEvent({ travel: travelSchema }),
    personal: [travelPersonal],
  },
  'claim.submitted': {
    summary: 'An expense claim was submitted',
    description: 'Sent when a speaker or crew member submits an expense claim. data = { event, claim }.',
    scopes: ['finance:read', people],
    data: claimData,
    personal: [claimPersonal],
  },
  'claim.approved': {
    summary: 'An expense claim was approved',
    description: 'Sent when the organiser approves an expense claim. data = { event, claim }.',
    scopes: ['finance:read', people],
    data: claimData,
    personal: [claimPersonal],
  },
  'claim.paid': {
    summary: 'An expense claim was paid',
    description: 'Sent when an approved expense claim is paid out. data = { event, claim }.',
    scopes: ['finance:read', people],
    data: claimData,
    personal: [claimPersonal],
  },
  'shift.signed_up': {
    summary: 'A crew member signed up for a shift',
    description: 'Sent when a crew member takes a place on a shift. data = { event, shift, crewMember }.',
    scopes: ['crew:read', people],
    data: shiftData,
    personal: [crewMemberPersonal],
  },
  'shift.dropped': {
    summary: 'A crew member dropped a shift',
    description: 'Sent when a crew member gives a shift back. data = { event, shift, crewMember }.',
    scopes: ['crew:read', people],
    data: shiftData,
    personal: [crewMemberPersonal],
  },
};

export const eventTypes: ReadonlyMap<WebhookEventType, EventTypeDefinition> = new Map(
  webhookEventTypes.map((type) => [type, { type, ...definitions[type] }]),
);

export function eventType(type: WebhookEventType): EventTypeDefinition {
  return eventTypes.get(type)!;
}

const signedBodies = new Map<WebhookEventType, v.GenericSchema>();
const hookBodies = new Map<WebhookEventType, v.GenericSchema>();

const typeField = (definition: EventTypeDefinition) =>
  v.pipe(v.literal(definition.type), v.description('The event type.'));
const when = () => dateTime('When it happened (UTC).');

/**
 * The signed body of a message of this type, as endpoints receive it: { type, timestamp, data }.
 * Made once per type, so the OpenAPI document can name it wherever it appears.
 */
export function signedBodySchema(definition: EventTypeDefinition): v.GenericSchema {
  let schema = signedBodies.get(definition.type);
  if (!schema) {
    schema = v.object({ type: typeField(definition), timestamp: when(), data: definition.data });
    signedBodies.set(definition.type, schema);
  }
  return schema;
}

/**
 * The unsigned body of a message of this type, as automation subscriptions (/hooks) receive it:
 * { id, type, timestamp } and the data's fields at the top level (hookBody makes it).
 */
export function hookBodySchema(definition: EventTypeDefinition): v.GenericSchema {
  let schema = hookBodies.get(definition.type);
  if (!schema) {
    schema = v.object({
      id: v.pipe(
        v.string(),
        v.regex(/^msg_[0-9a-f]{32}$/),
        v.description('The message id: msg_ and 32 hex characters, the same on every attempt.'),
      ),
      type: typeField(definition),
      timestamp: when(),
      ...definition.data.entries,
    });
    hookBodies.set(definition.type, schema);
  }
  return schema;
}

/** A message as a subscription receives it, its data lifted to the top level. */
export function hookBody(
  id: string,
  message: { type: string; timestamp: string; data: Record<string, unknown> },
): Record<string, unknown> {
  return { id, type: message.type, timestamp: message.timestamp, ...message.data };
}

/** Every scope the given types need, each once. */
export function scopesFor(types: readonly WebhookEventType[]): Scope[] {
  return [...new Set(types.flatMap((t) => eventType(t).scopes))];
}
