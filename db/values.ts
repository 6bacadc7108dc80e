// The fixed sets of values a column may hold, in one place: db/schema.ts types the columns with
// them, the CHECK constraints of the schema refuse anything else (a test compares the two), and
// core builds its schemas and rules from them.

export const flags = [0, 1] as const;
/** SQLite has no boolean: 0 or 1. */
export type Flag = (typeof flags)[number];
export const toFlag = (value: boolean): Flag => (value ? 1 : 0);

export const eventStatuses = ['draft', 'published'] as const;
export type EventStatus = (typeof eventStatuses)[number];

export const communityStatuses = ['draft', 'published'] as const;
export type CommunityStatus = (typeof communityStatuses)[number];

export const joinPolicies = ['open', 'approval'] as const;
export type JoinPolicy = (typeof joinPolicies)[number];

export const memberStatuses = ['active', 'pending', 'left'] as const;
export type MemberStatus = (typeof memberStatuses)[number];

/** Modules an organiser can switch off per event; a module absent from an event's list is on. */
export const eventModules = [
  'checkin',
  'program',
  'sponsors',
  'leads',
  'cfp',
  'crew',
  'feedback',
  'payments',
  'budget',
  'sharekit',
] as const;
export type EventModule = (typeof eventModules)[number];

export const orderStatuses = [
  'pending',
  'paid',
  'free',
  'onAccount',
  'transfer',
  'requested',
  'declined',
  'cancelled',
  'expired',
  'refunded',
] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const orderSources = ['registration', 'workspace', 'door'] as const;
export type OrderSource = (typeof orderSources)[number];

export const attendeeStatuses = ['active', 'cancelled'] as const;
export type AttendeeStatus = (typeof attendeeStatuses)[number];

export const ticketVisibilities = ['public', 'code', 'hidden'] as const;
export type TicketVisibility = (typeof ticketVisibilities)[number];

export const questionKinds = [
  'text',
  'longText',
  'email',
  'phone',
  'number',
  'date',
  'choice',
  'multiChoice',
  'checkbox',
  'file',
] as const;
export type QuestionKind = (typeof questionKinds)[number];

export const sessionKinds = [
  'talk',
  'keynote',
  'workshop',
  'panel',
  'break',
  'meal',
  'networking',
  'other',
] as const;
export type SessionKind = (typeof sessionKinds)[number];

export const doorKinds = ['entrance', 'session', 'area'] as const;
export type DoorKind = (typeof doorKinds)[number];

export const scanDirections = ['in', 'out'] as const;
export type ScanDirection = (typeof scanDirections)[number];

/** What a scan came to: let in or out, or one of the refusals. */
export const scanResults = [
  'welcome',
  'again',
  'out',
  'cancelled',
  'unpaid',
  'notOnList',
  'noAddOn',
  'full',
  'noReentry',
] as const;
export type ScanResult = (typeof scanResults)[number];

export const passKinds = ['season', 'bundle'] as const;
export type PassKind = (typeof passKinds)[number];

export const passScopes = ['range', 'list'] as const;
export type PassScope = (typeof passScopes)[number];

export const passRefundRules = ['beforeFirst', 'organiser', 'none'] as const;
export type PassRefundRule = (typeof passRefundRules)[number];

export const passStatuses = ['draft', 'onSale', 'closed'] as const;
export type PassStatus = (typeof passStatuses)[number];

/** How an event came to be on a pass: named in its list, or inside its date range. */
export const passEventSources = ['list', 'range'] as const;
export type PassEventSource = (typeof passEventSources)[number];

export const holderStatuses = ['active', 'ended'] as const;
export type HolderStatus = (typeof holderStatuses)[number];

export const holderEndedReasons = ['refunded', 'cancelled', 'orderGone'] as const;
export type HolderEndedReason = (typeof holderEndedReasons)[number];

/** How a sponsor came by a lead: scanned at the booth, asked for through the event app, or at a session. */
export const leadOrigins = ['booth', 'request', 'session'] as const;
export type LeadOrigin = (typeof leadOrigins)[number];

/** What a call-for-speakers submission proposes. */
export const submissionFormats = ['talk', 'workshop', 'lightning', 'panel'] as const;
export type SubmissionFormat = (typeof submissionFormats)[number];

/** Where a submission stands (README, "Call for speakers", has the transitions). */
export const submissionStatuses = [
  'draft',
  'submitted',
  'underReview',
  'accepted',
  'waitlisted',
  'rejected',
  'withdrawn',
] as const;
export type SubmissionStatus = (typeof submissionStatuses)[number];

/** Who shares an event through the share kit. */
export const sharerKinds = ['attendee', 'speaker', 'sponsor'] as const;
export type SharerKind = (typeof sharerKinds)[number];

/** Where a share-kit link was shared. */
export const shareChannels = ['linkedin', 'x', 'facebook', 'email', 'messaging', 'other'] as const;
export type ShareChannel = (typeof shareChannels)[number];

/** Where a crew shift is worked: at a door, in a room, in an area of the venue, or elsewhere. */
export const shiftPlaceKinds = ['door', 'room', 'area', 'other'] as const;
export type ShiftPlaceKind = (typeof shiftPlaceKinds)[number];

/** A finance document: an invoice, or a credit note correcting one (its amounts negative). */
export const invoiceKinds = ['invoice', 'creditNote'] as const;
export type InvoiceKind = (typeof invoiceKinds)[number];

/** Whether a budget line brings money in or costs it. */
export const budgetLineKinds = ['income', 'cost'] as const;
export type BudgetLineKind = (typeof budgetLineKinds)[number];

/** Sources that come in by import (db/migrations/0013-import-sources.ts). */
export const stayStatuses = ['requested', 'assigned', 'cancelled'] as const;
export type StayStatus = (typeof stayStatuses)[number];

export const travelModes = ['flight', 'train', 'bus', 'car', 'other'] as const;
export type TravelMode = (typeof travelModes)[number];

/** A journey stays booked until it is cancelled (kept, so the receiver and the list say so). */
export const travelStatuses = ['booked', 'cancelled'] as const;
export type TravelStatus = (typeof travelStatuses)[number];

export const claimStatuses = ['submitted', 'approved', 'paid', 'rejected'] as const;
export type ClaimStatus = (typeof claimStatuses)[number];

export const certificateKinds = ['attendance', 'speaker', 'crew'] as const;
export type CertificateKind = (typeof certificateKinds)[number];

export const contentKinds = ['slides', 'recording', 'article', 'photos'] as const;
export type ContentKind = (typeof contentKinds)[number];

/** Which ways of paying an event's public page offers (0047). */
export const paymentMethodsOffered = ['transfer', 'card', 'both'] as const;
export type PaymentMethodsOffered = (typeof paymentMethodsOffered)[number];

/** A Stripe key's mode, from its prefix (0047). */
export const stripeModes = ['test', 'live'] as const;
export type StripeMode = (typeof stripeModes)[number];

export const transports = ['rest', 'mcp'] as const;
export type Transport = (typeof transports)[number];

export const webhookEventTypes = [
  'attendee.registered',
  'attendee.updated',
  'attendee.cancelled',
  'attendee.erased',
  'order.paid',
  'checkin.created',
  'feedback.given',
  'lead.captured',
  'certificate.issued',
  'content.published',
  'stay.requested',
  'stay.assigned',
  'stay.changed',
  'stay.cancelled',
  'member.joined',
  'member.left',
  'travel.changed',
  'claim.submitted',
  'claim.approved',
  'claim.paid',
  'shift.signed_up',
  'shift.dropped',
  // Tessera extensions beyond the spec's 22 (core/webhooks/event-types.ts marks them).
  'order.approved',
  'order.declined',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** Why an endpoint stopped by itself: its address answered 410, or the key that made it ended. */
export const webhookDisabledReasons = ['gone', 'keyRevoked', 'keyExpired'] as const;
export type WebhookDisabledReason = (typeof webhookDisabledReasons)[number];

export const deliveryResults = ['succeeded', 'failed'] as const;
export type DeliveryResult = (typeof deliveryResults)[number];

/**
 * The platform that made an automation subscription: any short name (1 to 40 characters), not a
 * fixed list (core/webhooks/subscriptions/hook-client.ts).
 */
export type HookClient = string;

export const deliveryTargetKinds = ['webhook', 'hook'] as const;
export type DeliveryTargetKind = (typeof deliveryTargetKinds)[number];

export const deliveryStates = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
export type DeliveryState = (typeof deliveryStates)[number];

/** Where an e-mail is in its life: waiting, in an SMTP conversation, and how it ended. */
export const mailStates = ['queued', 'sending', 'sent', 'failed', 'cancelled'] as const;
export type MailState = (typeof mailStates)[number];

/** What caused an e-mail (with its cause id, queued once): a ticket, its cancellation, an order's transfer. */
export const mailCauseKinds = [
  'ticketIssued',
  'ticketCancelled',
  'transferInstructions',
  'ticketResent',
  'invoiceIssued',
  'creditNoteIssued',
  'documentSent',
  'requestReceived',
  'requestDeclined',
  'waitingListOffer',
] as const;
export type MailCauseKind = (typeof mailCauseKinds)[number];

/** Where a waiting-list entry stands: in line, offered a place, took it, let it run out, taken off. */
export const waitingStatuses = ['waiting', 'offered', 'accepted', 'expired', 'removed'] as const;
export type WaitingStatus = (typeof waitingStatuses)[number];

/** How one attempt to deliver ended. */
export const attemptOutcomes = [
  'succeeded',
  'httpError',
  'gone',
  'timeout',
  'networkError',
  'privateAddress',
  'notSigned',
] as const;
export type AttemptOutcome = (typeof attemptOutcomes)[number];

/**
 * Each enumerated column and the values it may hold; the schema test checks that the CHECK
 * constraint of every one of them allows exactly these.
 */
export const enumeratedColumns: Record<string, readonly (string | number)[]> = {
  'workspaces.demonstration': flags,
  'key_activity.transport': transports,
  'events.status': eventStatuses,
  'events.online': flags,
  'events.payment_methods': paymentMethodsOffered,
  'stripe_connections.mode': stripeModes,
  'stripe_events.livemode': flags,
  'stripe_events.handled': flags,
  'outbox.type': webhookEventTypes,
  'ticket_types.visibility': ticketVisibilities,
  'ticket_types.requires_approval': flags,
  'ticket_types.crew': flags,
  'ticket_types.waiting_list': flags,
  'waiting_list_entries.status': waitingStatuses,
  'waiting_list_entries.erased': flags,
  'discount_codes.active': flags,
  'event_invoicing.enabled': flags,
  'event_sign_up.public_form': flags,
  'event_sign_up.send_emails': flags,
  'mail_messages.cause_kind': mailCauseKinds,
  'mail_messages.state': mailStates,
  'mail_messages.erased': flags,
  'questions.kind': questionKinds,
  'questions.required': flags,
  'orders.status': orderStatuses,
  'orders.source': orderSources,
  'orders.erased': flags,
  'attendees.status': attendeeStatuses,
  'attendees.erased': flags,
  'speakers.erased': flags,
  'sessions.kind': sessionKinds,
  'sessions.draft': flags,
  'doors.kind': doorKinds,
  'doors.main': flags,
  'doors.reentry': flags,
  'check_ins.direction': scanDirections,
  'check_ins.result': scanResults,
  'check_ins.admitted': flags,
  'check_ins.offline': flags,
  'door_presence.inside': flags,
  'passes.kind': passKinds,
  'passes.scope': passScopes,
  'passes.refund_rule': passRefundRules,
  'passes.status': passStatuses,
  'pass_events.source': passEventSources,
  'pass_holders.status': holderStatuses,
  'pass_holders.ended_reason': holderEndedReasons,
  'pass_holders.erased': flags,
  'sponsor_levels.lead_download': flags,
  'sponsor_levels.logo_on_page': flags,
  'sponsor_levels.logo_on_screens': flags,
  'sponsor_levels.logo_on_badges': flags,
  'sponsor_levels.sponsored_session': flags,
  'leads.shared': flags,
  'leads.email_shared': flags,
  'leads.origin': leadOrigins,
  'leads.erased': flags,
  'submissions.format': submissionFormats,
  'submissions.status': submissionStatuses,
  'submission_speakers.erased': flags,
  'submission_reviews.erased': flags,
  'submission_status_changes.status': submissionStatuses,
  'sharers.kind': sharerKinds,
  'sharers.erased': flags,
  'share_links.channel': shareChannels,
  'webhooks.active': flags,
  'webhooks.disabled_reason': webhookDisabledReasons,
  'webhooks.last_status': deliveryResults,
  'hooks.event_type': webhookEventTypes,
  'hooks.active': flags,
  'deliveries.target_kind': deliveryTargetKinds,
  'deliveries.state': deliveryStates,
  'delivery_attempts.outcome': attemptOutcomes,
  'communities.online': flags,
  'communities.join_policy': joinPolicies,
  'communities.status': communityStatuses,
  'community_members.status': memberStatuses,
  'community_members.announcements': flags,
  'community_members.reminders': flags,
  'community_members.erased': flags,
  'crew_members.erased': flags,
  'shifts.place_kind': shiftPlaceKinds,
  'invoices.kind': invoiceKinds,
  'invoices.erased': flags,
  'budget_lines.kind': budgetLineKinds,
  'stays.status': stayStatuses,
  'stays.erased': flags,
  'travel.mode': travelModes,
  'travel.status': travelStatuses,
  'travel.erased': flags,
  'expense_claims.status': claimStatuses,
  'expense_claims.erased': flags,
  'certificates.kind': certificateKinds,
  'certificates.erased': flags,
  'published_content.kind': contentKinds,
};
