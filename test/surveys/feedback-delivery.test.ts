// feedback.given produced by API calls (a survey answered, a session rated; no import, no CLI),
// delivered to a local HTTPS receiver, verified with the `standardwebhooks` library and accepted by
// the type's published schema; neither delivery says who gave the feedback.
import { Webhook } from 'standardwebhooks';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventType, signedBodySchema } from '../../core/webhooks/event-types';
import { closeDeliverySetup, startDeliverySetup } from '../support/delivery-setup';
import type { Receiver } from '../support/receiver';
import { person, register, sampleIds } from '../support/sales';
import type { TestServer } from '../support/server';

let t: TestServer;
let receiver: Receiver;
let key: string;
let summit: string;
let workspaceId: string;

beforeAll(async () => {
  ({ t, workspaceId, key, receiver } = await startDeliverySetup('Feedback delivery', true));
  summit = sampleIds(workspaceId).event('summit');
});
afterAll(() => closeDeliverySetup({ t, receiver }));

const headersOf = (r: { headers: Record<string, unknown> }) =>
  Object.fromEntries(Object.entries(r.headers).map(([k, value]) => [k, String(value)]));

describe('feedback.given, live', () => {
  it('reaches a receiver signed, in its published shape, for an answer and for a rating', async () => {
    const endpoint = await t.api('/webhooks', {
      key,
      method: 'POST',
      body: { url: receiver.url(), eventTypes: ['feedback.given'] },
    });
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
    const secret: string = endpoint.body.secret;

    const someone = person(sampleIds(workspaceId).ticketType('summit', 'standard'));
    const attendeeId = (await register(t, key, summit, [someone])).body.attendees[0].attendeeId;
    const survey = await t.api(`/events/${summit}/surveys`, {
      key,
      method: 'POST',
      body: { title: { en: 'Pulse' }, questions: [{ id: 'mood', kind: 'rating', label: { en: 'Mood?' } }] },
    });
    const answered = await t.api(`/events/${summit}/surveys/${survey.body.surveyId}/answers`, {
      key,
      method: 'POST',
      body: { attendeeId, answers: { mood: 4 } },
    });
    expect(answered.status, JSON.stringify(answered.body)).toBe(201);
    const sessionId = (await t.api(`/events/${summit}/sessions`, { key })).body.data[0].sessionId;
    const rated = await t.api(`/events/${summit}/sessions/${sessionId}/ratings`, {
      key,
      method: 'POST',
      body: { attendeeId, stars: 5 },
    });
    expect(rated.status, JSON.stringify(rated.body)).toBe(201);

    const got = await receiver.waitFor(2);
    const schema = signedBodySchema(eventType('feedback.given'));
    const bodies = got.map((delivery) => {
      const verified = new Webhook(secret).verify(delivery.body, headersOf(delivery)) as any;
      const parsed = v.safeParse(schema, verified);
      expect(parsed.issues, JSON.stringify(parsed.issues)).toBeUndefined();
      expect(verified.type).toBe('feedback.given');
      expect(verified.data.event).toMatchObject({ eventId: summit });
      expect(delivery.body).not.toContain(attendeeId);
      expect(delivery.body).not.toContain(someone.email as string);
      return verified.data.feedback;
    });
    expect(bodies).toEqual(expect.arrayContaining([answered.body, rated.body]));
  });
});
