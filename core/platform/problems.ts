// The one catalogue of problem codes: code -> HTTP status and title. Use cases throw
// `problem(code, detail?, extras?)`; only the adapters turn it into HTTP or a tool error. A detail
// that points to another operation mentions it (mentions.ts): each adapter names it its own way.
import { byTitle, type DetailPart, isDetailParts, type NameOperation, renderDetail } from './mentions';

export const problemCatalogue = {
  invalidKey: {
    status: 401,
    title: 'Invalid API key',
    detail: 'No API key was sent, or it is not a key of this service.',
  },
  keyExpired: { status: 401, title: 'API key expired', detail: 'The API key has passed its expiry date.' },
  keyRevoked: { status: 401, title: 'API key revoked', detail: 'The API key has been revoked.' },
  metricsTokenInvalid: {
    status: 401,
    title: 'Metrics token needed',
    detail: '/metrics is read with the bearer token the operator set (TESSERA_METRICS_TOKEN).',
  },
  wrongAudience: {
    status: 401,
    title: 'Wrong audience',
    detail: 'The token was issued for the other resource (MCP or REST).',
  },
  invalidOrigin: {
    status: 403,
    title: 'Origin not allowed',
    detail: "Browser requests to the MCP server are accepted only from this service's own origin.",
  },
  missingScope: { status: 403, title: 'Missing scope', detail: 'The API key lacks a scope this call needs.' },
  peopleScope: {
    status: 403,
    title: 'People scope needed',
    detail: 'A call about people by name or address needs the people:read scope.',
  },
  demoWorkspace: {
    status: 403,
    title: 'Demonstration workspace',
    detail: 'The demonstration workspace is read-only.',
  },
  httpsRequired: { status: 403, title: 'HTTPS required', detail: 'Only HTTPS requests are answered.' },
  notFound: { status: 404, title: 'Not found', detail: 'No such resource in this workspace.' },
  eventNotFound: { status: 404, title: 'Event not found', detail: 'No such event in this workspace.' },
  attendeeNotFound: { status: 404, title: 'Attendee not found', detail: 'No such attendee at this event.' },
  noDoor: { status: 404, title: 'No such door', detail: 'No such door at this event.' },
  methodNotAllowed: {
    status: 405,
    title: 'Method not allowed',
    detail: 'This address does not answer that method.',
  },
  moduleOff: {
    status: 409,
    title: 'Module switched off',
    detail: 'The organiser switched this module off for the event.',
  },
  onlineEvent: { status: 409, title: 'Online event', detail: 'An online event has no doors.' },
  alreadyCancelled: { status: 409, title: 'Already cancelled', detail: 'The ticket is already cancelled.' },
  clash: { status: 409, title: 'Room clash', detail: 'The room is taken at that time.' },
  slugTaken: { status: 409, title: 'Slug taken', detail: 'Another event already has this slug.' },
  historyNeedsLicence: {
    status: 409,
    title: 'Licence needed',
    detail: 'Reopening an earlier edition above the free limit needs its licence.',
  },
  endsCommunity: {
    status: 409,
    title: 'Ends community status',
    detail: "A paid ticket would end the event's free community status above the free limit.",
  },
  codeTaken: {
    status: 409,
    title: 'Code taken',
    detail: 'A discount code with these letters already exists.',
  },
  alreadyMember: {
    status: 409,
    title: 'Already a member',
    detail: 'Someone with this email address is already a member of the community, or waiting for approval.',
  },
  memberNotPending: {
    status: 409,
    title: 'Member not waiting for approval',
    detail: 'Only a member waiting for approval can be approved or declined.',
  },
  capacityBelowTaken: {
    status: 409,
    title: 'Capacity below places taken',
    detail: 'The capacity cannot be set below the places already taken.',
  },
  alreadyAnswered: {
    status: 409,
    title: 'Already answered',
    detail: 'This attendee has already answered this survey; each attendee answers once.',
  },
  alreadyRated: {
    status: 409,
    title: 'Already rated',
    detail: 'This attendee has already rated this session; each attendee rates a session once.',
  },
  surveyNotOpen: {
    status: 409,
    title: 'Survey not open',
    detail: 'The survey takes answers only between its opening and closing times.',
  },
  questionAnswered: {
    status: 409,
    title: 'Question already answered',
    detail:
      'A question people have answered cannot be removed or change its kind, nor lose an option they chose.',
  },
  callClosed: {
    status: 409,
    title: 'Call for speakers closed',
    detail: 'The call for speakers takes submissions only between its opening and closing times.',
  },
  sessionPublished: {
    status: 409,
    title: 'Session already published',
    detail: 'The session this submission became is in the public programme; unpublish or remove it first.',
  },
  orderNotAwaitingPayment: {
    status: 409,
    title: 'Order not awaiting payment',
    detail:
      'Only a pending, on-account or transfer order can be marked paid (a requested one is approved first); orderStatus says what it is.',
  },
  orderNotRequested: {
    status: 409,
    title: 'Order not waiting for approval',
    detail:
      'Only an order waiting for approval (status requested) can be approved or declined; orderStatus says what it is.',
  },
  orderNotPaid: {
    status: 409,
    title: 'Order not paid',
    detail: 'Only a paid order can be refunded; orderStatus says what it is.',
  },
  levelInUse: {
    status: 409,
    title: 'Level in use',
    detail: 'Sponsors still have this level; move them to another level first.',
  },
  sponsorHasLeads: {
    status: 409,
    title: 'Sponsor has leads',
    detail: 'The sponsor has leads; remove them with it only when asked to (withLeads).',
  },
  eventPublished: {
    status: 409,
    title: 'Event published',
    detail: 'A published event cannot be removed; return it to draft first.',
  },
  inUse: {
    status: 409,
    title: 'In use',
    detail: 'Other records depend on this one; dependents names them. Change or remove them first.',
  },
  leadDownloadClosed: {
    status: 409,
    title: 'Lead download closed',
    detail: "The sponsor's level does not let it download its leads now.",
  },
  shiftFull: {
    status: 409,
    title: 'Shift full',
    detail: 'The shift has as many people as it needs; shiftId names it.',
  },
  shiftClash: {
    status: 409,
    title: 'Shift clash',
    detail: 'The crew member is already on a shift at that time; shiftId names it.',
  },
  statusNotAllowed: {
    status: 409,
    title: 'Not allowed in this status',
    detail: 'The resource is in a status that does not allow this change; currentStatus names it.',
  },
  notEligibleForCertificate: {
    status: 409,
    title: 'Not eligible for the certificate',
    detail:
      'An attendance certificate needs a ticket that was checked in; a speaker or crew certificate needs a ticket holder who speaks or crews at the event.',
  },
  emailNotSent: {
    status: 409,
    title: 'E-mail not sent',
    detail:
      'No e-mail can go out for this: e-mail is off, the event or its workspace sends none, the person erased their data, or the ticket is not issued yet; the detail says which.',
  },
  certificateExists: {
    status: 409,
    title: 'Certificate already issued',
    detail:
      'The attendee already holds a certificate of this kind; certificateId names it (revoke it first to issue again).',
  },
  stripeNotConnected: {
    status: 409,
    title: 'Stripe not connected',
    detail: 'Card payments need the workspace connected to its Stripe account first.',
  },
  idempotencyKeyInUse: {
    status: 409,
    title: 'Idempotency key in use',
    detail: 'A request with this Idempotency-Key is still running; wait, then resend.',
  },
  preconditionFailed: {
    status: 412,
    title: 'Precondition failed',
    detail: 'The resource changed since it was read (If-Match no longer matches).',
  },
  idempotencyKeyReused: {
    status: 422,
    title: 'Idempotency key reused',
    detail: 'This Idempotency-Key was used within 24 hours for another method, path or body.',
  },
  invalidRequest: {
    status: 400,
    title: 'Invalid request',
    detail: 'A field or parameter is missing or wrong.',
  },
  invalidBody: {
    status: 400,
    title: 'Invalid body',
    detail: 'The body is not JSON, or a field has the wrong type.',
  },
  invalidCursor: {
    status: 400,
    title: 'Invalid cursor',
    detail: 'The cursor is invalid, or the filters differ from those it was made with.',
  },
  invalidUpdatedSince: {
    status: 400,
    title: 'Invalid updatedSince',
    detail: 'updatedSince is not an ISO 8601 date-time.',
  },
  invalidSort: { status: 400, title: 'Invalid sort', detail: 'sort must be changed or -created.' },
  invalidIdempotencyKey: {
    status: 400,
    title: 'Invalid idempotency key',
    detail: 'An Idempotency-Key must be 1 to 255 visible ASCII characters.',
  },
  invalid: {
    status: 400,
    title: 'Invalid attendee details',
    detail: 'Some attendee details are wrong; errors names each.',
  },
  soldOut: { status: 400, title: 'Sold out', detail: 'The ticket type has no places left.' },
  unknownTicket: {
    status: 400,
    title: 'Unknown ticket type',
    detail: 'The ticket type is not one of this event.',
  },
  empty: { status: 400, title: 'No attendees', detail: 'No attendee was sent.' },
  tooMany: {
    status: 400,
    title: 'Too many attendees',
    detail: 'At most 50 attendees can be registered in one request.',
  },
  registrationRefused: {
    status: 400,
    title: 'Registration refused',
    detail: 'The registration was refused; reason names why.',
  },
  eventType: { status: 400, title: 'Unknown event type', detail: 'That is not a webhook event type.' },
  webhookUrl: {
    status: 400,
    title: 'Invalid webhook URL',
    detail:
      'The URL must be an absolute https address without user name or fragment, at most 2,000 characters.',
  },
  webhookHttps: { status: 400, title: 'Webhook URL not https', detail: 'The URL must use https.' },
  webhookPrivate: {
    status: 400,
    title: 'Private webhook address',
    detail: 'The URL points to a private, loopback or link-local address.',
  },
  tooManyHooks: {
    status: 400,
    title: 'Too many subscriptions',
    detail: 'A workspace may have at most 200 automation subscriptions.',
  },
  tooManyEndpoints: {
    status: 400,
    title: 'Too many endpoints',
    detail: 'A workspace may have at most 20 webhook endpoints.',
  },
  stripeSignatureInvalid: {
    status: 400,
    title: 'Stripe signature invalid',
    detail:
      "The Stripe-Signature header does not verify with the workspace's webhook signing secret (or none is set): the event was not taken.",
  },
  stripeKeyRefused: {
    status: 422,
    title: 'Stripe refused the key',
    detail:
      'Stripe did not accept the key (revoked, mistyped, or a restricted key without the permissions payments need); the detail gives what Stripe said.',
  },
  requestTimeout: {
    status: 408,
    title: 'Request too slow',
    detail: 'The request did not arrive in time (10 seconds for the headers, 30 for the whole request).',
  },
  payloadTooLarge: {
    status: 413,
    title: 'Body too large',
    detail: 'The request body is larger than this service accepts.',
  },
  unsupportedEncoding: {
    status: 415,
    title: 'Content coding not supported',
    detail:
      "The body's Content-Encoding is not one this service decodes (gzip, deflate, br, or none); encoding names it.",
  },
  rateLimited: {
    status: 429,
    title: 'Rate limited',
    detail: "More calls than the key's per-minute limit; wait for the seconds in Retry-After.",
  },
  headersTooLarge: {
    status: 431,
    title: 'Headers too large',
    detail: 'The request headers are larger than this service accepts (16 KB in all).',
  },
  serverError: {
    status: 500,
    title: 'Server error',
    detail: "A fault on the service's side; retry with the same Idempotency-Key.",
  },
  stripeUnavailable: {
    status: 502,
    title: 'Stripe unavailable',
    detail:
      'Stripe could not be reached, or answered with an error of its own; nothing was changed. Try again.',
  },
  webhooksUnavailable: {
    status: 503,
    title: 'Webhooks unavailable',
    detail: 'This deployment keeps no signing secrets (no master key is configured).',
  },
} as const satisfies Record<string, { status: number; title: string; detail: string }>;

export type ProblemCode = keyof typeof problemCatalogue;

/**
 * Extra members some codes carry (scope, module, errors, etag, taken, sessions, ticketTypeId,
 * reason), and retryAfter: seconds to wait, also sent as the Retry-After header.
 */
export type ProblemExtras = Record<string, unknown>;

export class Problem extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly title: string;
  /** The detail with its mentions named by title (the command line, the log). */
  readonly detail: string;
  readonly parts: readonly DetailPart[];
  readonly extras: ProblemExtras;

  constructor(code: ProblemCode, detail?: string | readonly DetailPart[], extras: ProblemExtras = {}) {
    const entry = problemCatalogue[code];
    const parts = typeof detail === 'object' ? detail : [detail ?? entry.detail];
    const plain = renderDetail(parts, byTitle);
    super(plain);
    this.name = 'Problem';
    this.code = code;
    this.status = entry.status;
    this.title = entry.title;
    this.detail = plain;
    this.parts = parts;
    this.extras = extras;
  }

  /** The detail as a transport answers it, naming the operations it mentions its own way. */
  detailNaming(name: NameOperation): string {
    return renderDetail(this.parts, name);
  }
}

export function problem(
  code: ProblemCode,
  detail?: string | readonly DetailPart[],
  extras?: ProblemExtras,
): Problem {
  return new Problem(code, detail, extras);
}

export function isProblem(error: unknown): error is Problem {
  return error instanceof Problem;
}

/** The RFC 9457 body, shared by REST answers and MCP tool errors. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  code: ProblemCode;
  traceId: string;
  error: string;
  [extra: string]: unknown;
}

export function problemBody(
  p: Problem,
  where: { root: string; instance: string; traceId: string; nameOperation?: NameOperation },
): ProblemBody {
  const name = where.nameOperation ?? byTitle;
  const detail = p.detailNaming(name);
  return {
    type: `${where.root}/developers/errors#${p.code}`,
    title: p.title,
    status: p.status,
    detail,
    instance: where.instance,
    code: p.code,
    traceId: where.traceId,
    error: detail,
    ...p.extras,
    ...(Array.isArray(p.extras.errors) && { errors: p.extras.errors.map(fieldErrorNaming(name)) }),
  };
}

/** A field error whose message mentions an operation, as the transport names it. */
const fieldErrorNaming = (name: NameOperation) => (error: unknown) => {
  const message = (error as { message?: unknown } | null)?.message;
  return isDetailParts(message) ? { ...(error as object), message: renderDetail(message, name) } : error;
};
