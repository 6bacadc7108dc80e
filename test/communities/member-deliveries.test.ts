// member.joined and member.left produced by API calls (no import, no command line), delivered to a
// local HTTPS receiver, verified with the standardwebhooks package and each type's published schema.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDeliverySetup, startDeliverySetup } from '../support/delivery-setup';
import type { Receiver } from '../support/receiver';
import type { TestServer } from '../support/server';

let t: TestServer;
let key: string;
let receiver: Receiver;

beforeAll(async () => {
  ({ t, key, receiver } = await startDeliverySetup('Member deliveries'));
});
afterAll(() => closeDeliverySetup({ t, receiver }));

const headersOf = (r: { headers: Record<string, unknown> }) =>
  Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));

async function endpoint(path: string, k: string) {
  const made = await t.api('/webhooks', {
    key: k,
    method: 'POST',
    body: { url: receiver.url(path), eventTypes: ['member.joined', 'member.left'] },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.secret as string;
}

describe('member.joined and member.left from API calls', () => {
  it('reach a receiver signed, each accepted by its published schema', async () => {
    const secret = await endpoint('/full', key);
    const community = await t.api('/communities', {
      key,
      method: 'POST',
      body: {
        slug: `deliveries-${Date.now()}`,
        name: 'Delivery Club',
        timeZone: 'UTC',
        joinPolicy: 'approval',
      },
    });
    const communityId = community.body.communityId;
    const joined = await t.api(`/communities/${communityId}/members`, {
      key,
      method: 'POST',
      body: { name: 'Hanne Dahl', email: 'hanne@example.com' },
    });
    expect(joined.body.status).toBe('pending');
    const memberId = joined.body.memberId;
    const approved = await t.api(`/communities/${communityId}/members/${memberId}/approve`, {
      key,
      method: 'POST',
    });
    const left = await t.api(`/communities/${communityId}/members/${memberId}/leave`, {
      key,
      method: 'POST',
    });
    expect(left.body.status).toBe('left');

    const got = await receiver.waitFor(2, { path: '/full' });
    const verified = got.map((r) => new Webhook(secret).verify(r.body, headersOf(r)) as any);
    expect(verified.map((m) => m.type).sort()).toEqual(['member.joined', 'member.left']);
    const byType = Object.fromEntries(verified.map((m) => [m.type, m]));
    expect(byType['member.joined'].data).toEqual({
      community: { communityId, slug: community.body.slug, name: 'Delivery Club' },
      member: approved.body,
    });
    expect(byType['member.left'].data.member).toEqual(left.body);

    const catalogue = (await t.api('/webhooks/event-types', { key })).body.data as any[];
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats(ajv);
    for (const message of verified) {
      const schema = catalogue.find((c) => c.type === message.type)!.schema;
      const validate = ajv.compile(schema);
      expect(validate(message), `${message.type}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
  });
});
