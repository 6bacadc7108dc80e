// Small helpers the suites share: a valid event body, and the check every refusal must pass.
import { expect } from 'vitest';
import type { ApiAnswer } from './server';

let counter = 0;

/** A valid POST /events body (in person, venue time); `name` varies so slugs do not clash. */
export function eventBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    name: `Test event ${counter} ${Math.random().toString(36).slice(2, 8)}`,
    timeZone: 'Europe/Oslo',
    currency: 'EUR',
    startsLocal: '2027-05-01T09:00',
    endsLocal: '2027-05-01T17:00',
    venue: { name: 'Main hall', city: 'Oslo', country: 'NO' },
    ...overrides,
  };
}

/**
 * Asserts an answer is an RFC 9457 problem of this service with the given status and code, with
 * every member the spec lists, and returns its body.
 */
export function expectProblem(res: ApiAnswer, status: number, code: string): Record<string, any> {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = res.body as Record<string, any>;
  expect(body.status).toBe(status);
  expect(body.type).toMatch(new RegExp(`^https?://[^/]+/developers/errors#${code}$`));
  expect(typeof body.title).toBe('string');
  expect(body.title.length).toBeGreaterThan(0);
  expect(typeof body.detail).toBe('string');
  expect(body.detail.length).toBeGreaterThan(0);
  expect(body.error).toBe(body.detail);
  expect(typeof body.instance).toBe('string');
  expect(body.instance.startsWith('/')).toBe(true);
  expect(typeof body.traceId).toBe('string');
  expect(body.traceId.length).toBeGreaterThan(0);
  expect(res.headers.get('x-trace-id')).toBe(body.traceId);
  return body;
}

/** The scope table of the spec's Authentication section, in its order. */
export const specScopes = [
  'events:read',
  'events:write',
  'tickets:read',
  'tickets:write',
  'orders:read',
  'attendees:read',
  'attendees:write',
  'checkins:read',
  'checkins:write',
  'program:read',
  'program:write',
  'sponsors:read',
  'cfp:read',
  'crew:read',
  'surveys:read',
  'finance:read',
  'sharekit:read',
  'communities:read',
  'webhooks:read',
  'webhooks:write',
  'people:read',
] as const;

export const specReadScopes = specScopes.filter((s) => s.endsWith(':read'));

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The fields of the spec's Attendee table. */
export const specAttendeeFields = [
  'attendeeId',
  'eventId',
  'orderId',
  'orderReference',
  'ticketTypeId',
  'ticketTypeName',
  'firstName',
  'lastName',
  'email',
  'company',
  'jobTitle',
  'language',
  'answers',
  'status',
  'orderStatus',
  'valid',
  'checkedInUtc',
  'createdUtc',
  'changedUtc',
  'updatedUtc',
  'erased',
  'personalData',
];

/** The attendee's fields as this service shows them: the spec's, and the extension's ticket code and ticket address. */
export const attendeeFields = [...specAttendeeFields, 'ticketCode', 'ticketUrl'];
