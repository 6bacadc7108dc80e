// Webhook endpoints and automation subscriptions of the sample data (the demonstration workspace
// and `workspace create --sample`), with what was delivered to them: deliveries that succeeded
// (one after a 503), one given up after ten attempts that timed out or found nobody, one that met
// 410 Gone (its endpoint switched off, the delivery queued after it cancelled). Nothing is left
// pending, and every endpoint and subscription is switched off at an address under .invalid (RFC
// 2606: never resolves), so the sample never sends anything, even once a secret is made or a change
// happens in a writable sample workspace. The messages, the secrets and the retry schedule come from
// core (core/webhooks/sample-webhooks.ts), so they are what a receiver would have got; core's outbox
// writer records the messages (the one writer of the outbox), this file only says when they were
// sent and under which ids.
import { createHash } from 'node:crypto';
import type { Db } from '../connect';
import { nextChangeSeq } from '../sequence';
import type { AttemptOutcome, DeliveryState, HookClient, WebhookEventType } from '../values';
import { sampleId } from './ids';

interface SampleWebhooks {
  workspaceId: string;
  now: Date;
  /** A new endpoint secret, encrypted; null where the deployment has no master key. */
  secret: () => string | null;
  /** The key the subscriptions and endpoints are made by (the demonstration key); null: the operator. */
  keyId: string | null;
  /** The messages about the summit as the outbox recorded them (sampleMessageStamps), oldest first. */
  messages: readonly SampleMessage[];
  /** Seconds before each retry, as the dispatcher waits them. */
  retryDelaysSeconds: readonly number[];
}

interface Attempt {
  outcome: AttemptOutcome;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

const ok: Attempt = { outcome: 'succeeded', statusCode: 200, durationMs: 84, error: null };
const unavailable: Attempt = {
  outcome: 'httpError',
  statusCode: 503,
  durationMs: 31,
  error: 'The receiver answered 503.',
};
const timedOut: Attempt = {
  outcome: 'timeout',
  statusCode: null,
  durationMs: 10_000,
  error: 'No answer within 10 seconds.',
};
const unreachable: Attempt = {
  outcome: 'networkError',
  statusCode: null,
  durationMs: 12,
  error: 'connect ECONNREFUSED',
};
const gone: Attempt = {
  outcome: 'gone',
  statusCode: 410,
  durationMs: 45,
  error: 'The receiver answered 410 Gone.',
};

const hours = (n: number) => n * 3_600_000;

/** The event the sample's messages are about. */
export const sampleSummitId = (workspaceId: string) => sampleId(workspaceId, 'event/summit');

/** Every sample receiver is under this reserved domain, which never resolves. */
export const sampleReceiverDomain = 'acme.invalid';

/** Where each sample endpoint points, by its key. */
export const sampleEndpointUrls = {
  crm: `https://crm.${sampleReceiverDomain}/tessera/webhooks?token=sample-3f9c`,
  badges: `https://badges.${sampleReceiverDomain}/print-queue`,
  relay: `https://relay.${sampleReceiverDomain}/hooks/old-chat`,
};

export const sampleHookUrl = (client: HookClient, key: string) =>
  `https://hooks.${sampleReceiverDomain}/${client}/${key}`;

/** The sample's workspace, its ids, and its times relative to midnight UTC of the day it is made. */
interface SampleTime {
  workspaceId: string;
  day0: number;
  id(name: string): string;
  at(ms: number): string;
}

function sampleTime(workspaceId: string, now: Date): SampleTime {
  const day0 = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return {
    workspaceId,
    day0,
    id: (name) => sampleId(workspaceId, `webhooks/${name}`),
    at: (ms) => new Date(day0 + ms).toISOString(),
  };
}

export async function insertSampleWebhooks(db: Db, options: SampleWebhooks): Promise<void> {
  const time = sampleTime(options.workspaceId, options.now);
  await insertReceivers(db, time, options);
  await insertDeliveries(db, time, options.messages, options.retryDelaysSeconds);
}

/** The three endpoints and three subscriptions, all switched off, made twenty days ago. */
async function insertReceivers(db: Db, time: SampleTime, options: SampleWebhooks): Promise<void> {
  await insertEndpoints(db, time, options);
  await insertHooks(db, time, options);
}

const sampleEndpoints = [
  {
    key: 'crm',
    url: sampleEndpointUrls.crm,
    description: 'CRM: new registrations and paid orders',
    types: ['attendee.registered', 'attendee.cancelled', 'order.paid'],
    disabled: null,
    last: 'succeeded' as const,
  },
  {
    key: 'badges',
    url: sampleEndpointUrls.badges,
    description: 'Badge printer at the venue',
    types: ['attendee.registered', 'attendee.updated'],
    disabled: null,
    last: 'failed' as const,
  },
  {
    key: 'relay',
    url: sampleEndpointUrls.relay,
    description: 'Old chat relay (the service was shut down)',
    types: ['attendee.registered'],
    disabled: 'gone' as const,
    last: 'failed' as const,
  },
];

async function insertEndpoints(
  db: Db,
  { workspaceId, id, at }: SampleTime,
  options: SampleWebhooks,
): Promise<void> {
  const made = at(-hours(24 * 20));
  for (const e of sampleEndpoints)
    await db
      .insertInto('webhooks')
      .values({
        id: id(`endpoint/${e.key}`),
        workspace_id: workspaceId,
        url: e.url,
        description: e.description,
        event_types: JSON.stringify(e.types),
        active: 0,
        disabled_reason: e.disabled,
        secret_enc: options.secret(),
        previous_secret_enc: null,
        previous_secret_until_utc: null,
        api_key_id: options.keyId,
        created_by: options.keyId ? 'Demonstration key' : 'Sample data',
        last_status: e.last,
        last_delivery_utc: null,
        created_utc: made,
        updated_utc: made,
        change_seq: await nextChangeSeq(db),
      })
      .execute();
}

const sampleHooks: { key: string; type: WebhookEventType; client: HookClient; summitOnly: boolean }[] = [
  { key: 'zapier', type: 'attendee.registered', client: 'zapier', summitOnly: true },
  { key: 'make', type: 'order.paid', client: 'make', summitOnly: false },
  { key: 'n8n', type: 'attendee.cancelled', client: 'n8n', summitOnly: false },
];

/** The automation subscriptions (REST hooks of Zapier, Make and n8n). */
async function insertHooks(
  db: Db,
  { workspaceId, id, at }: SampleTime,
  options: SampleWebhooks,
): Promise<void> {
  const made = at(-hours(24 * 20));
  for (const h of sampleHooks)
    await db
      .insertInto('hooks')
      .values({
        id: id(`hook/${h.key}`),
        workspace_id: workspaceId,
        api_key_id: options.keyId,
        event_type: h.type,
        event_id: h.summitOnly ? sampleSummitId(workspaceId) : null,
        url: sampleHookUrl(h.client, h.key),
        client: h.client,
        active: 0,
        created_utc: made,
      })
      .execute();
}

/** A sample message as the outbox recorded it. */
export type SampleMessage = { id: number; messageId: string; type: WebhookEventType };

/**
 * The id and times of each of `count` sample messages: made a minute apart four days ago and fanned
 * out then; their ids are the sample's own, the same at each making.
 */
export function sampleMessageStamps(workspaceId: string, now: Date, count: number) {
  const { id, at } = sampleTime(workspaceId, now);
  return Array.from({ length: count }, (_, i) => ({
    messageId: `msg_${createHash('sha256')
      .update(id(`message/${i}`))
      .digest('hex')
      .slice(0, 32)}`,
    createdUtc: at(-hours(24 * 4) + i * 60_000),
    dispatchedUtc: at(-hours(24 * 4)),
  }));
}

/** What was planned to become of a message at a receiver, attempt by attempt. */
interface DeliveryPlan {
  target: ['webhook' | 'hook', string];
  message: SampleMessage;
  attempts: Attempt[];
  state: DeliveryState;
}

/** What became of each message at each receiver, attempt by attempt. */
async function insertDeliveries(
  db: Db,
  time: SampleTime,
  outbox: readonly SampleMessage[],
  retryDelaysSeconds: readonly number[],
): Promise<void> {
  const lastDelivery = new Map<string, string>();
  for (const plan of deliveryPlans(time, outbox, retryDelaysSeconds)) {
    const updated = await insertDelivery(db, time, plan, retryDelaysSeconds);
    if (plan.target[0] === 'webhook' && updated > (lastDelivery.get(plan.target[1]) ?? ''))
      lastDelivery.set(plan.target[1], updated);
  }
  for (const [webhookId, when] of lastDelivery)
    await db.updateTable('webhooks').set({ last_delivery_utc: when }).where('id', '=', webhookId).execute();
}

/**
 * The CRM got every message (the first after a 503); the badge printer never answered the first
 * registration; the relay met 410 Gone, and the message queued after it was cancelled; the Zapier
 * and Make subscriptions got theirs.
 */
function deliveryPlans(
  { id }: SampleTime,
  outbox: readonly SampleMessage[],
  retryDelaysSeconds: readonly number[],
): DeliveryPlan[] {
  const registered = outbox.filter((m) => m.type === 'attendee.registered');
  const paid = outbox.filter((m) => m.type === 'order.paid');
  const webhook = (key: string): DeliveryPlan['target'] => ['webhook', id(`endpoint/${key}`)];
  const hook = (key: string): DeliveryPlan['target'] => ['hook', id(`hook/${key}`)];
  return [
    ...[...registered, ...paid].map((message, i) => ({
      target: webhook('crm'),
      message,
      attempts: i === 0 ? [unavailable, ok] : [ok],
      state: 'succeeded' as const,
    })),
    ...registered.slice(0, 1).map((message) => ({
      target: webhook('badges'),
      message,
      attempts: retryDelaysSeconds.map((_, i) => (i % 2 === 0 ? timedOut : unreachable)).concat([timedOut]),
      state: 'failed' as const,
    })),
    ...registered.slice(0, 2).map((message, i) => ({
      target: webhook('relay'),
      message,
      attempts: i === 0 ? [gone] : [],
      state: i === 0 ? ('failed' as const) : ('cancelled' as const),
    })),
    ...registered.map((message) => ({
      target: hook('zapier'),
      message,
      attempts: [ok],
      state: 'succeeded' as const,
    })),
    ...paid.map((message) => ({
      target: hook('make'),
      message,
      attempts: [ok],
      state: 'succeeded' as const,
    })),
  ];
}

/**
 * The delivery and its attempts: made when the message was fanned out four days ago, the first
 * attempt two seconds later, each retry after the dispatcher's wait. Answers when it last changed.
 */
async function insertDelivery(
  db: Db,
  { workspaceId, at, day0 }: SampleTime,
  plan: DeliveryPlan,
  retryDelaysSeconds: readonly number[],
): Promise<string> {
  const created = at(-hours(24 * 4));
  let clock = day0 - hours(24 * 4) + 2_000;
  const times = plan.attempts.map((_, i) => {
    const start = clock;
    clock += (retryDelaysSeconds[i] ?? 0) * 1000;
    return start;
  });
  const last = times.at(-1);
  const updated =
    last === undefined ? created : new Date(last + plan.attempts.at(-1)!.durationMs).toISOString();
  const { id: deliveryId } = await db
    .insertInto('deliveries')
    .values({
      workspace_id: workspaceId,
      outbox_id: plan.message.id,
      message_id: plan.message.messageId,
      type: plan.message.type,
      payload: null,
      target_kind: plan.target[0],
      target_id: plan.target[1],
      state: plan.state,
      attempts: plan.attempts.length,
      next_attempt_utc: null,
      claimed_until_utc: null,
      last_status_code: plan.attempts.at(-1)?.statusCode ?? null,
      created_utc: created,
      updated_utc: updated,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [i, attempt] of plan.attempts.entries()) {
    const next = i + 1 < plan.attempts.length ? new Date(times[i + 1]!).toISOString() : null;
    await db
      .insertInto('delivery_attempts')
      .values({
        delivery_id: deliveryId,
        attempt: i + 1,
        started_utc: new Date(times[i]!).toISOString(),
        duration_ms: attempt.durationMs,
        status_code: attempt.statusCode,
        outcome: attempt.outcome,
        error: attempt.error,
        next_attempt_utc: next,
      })
      .execute();
  }
  return updated;
}
