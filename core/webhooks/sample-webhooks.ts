// The sample's webhook history (db/sample/webhooks.ts) with what only core knows: the messages
// about the summit's first registrations and paid orders, built and recorded by the emitters the use
// cases call (as sent days ago), the endpoints' encrypted secrets and the retry schedule.
import type { Db } from '../../db/connect';
import { insertSampleWebhooks, sampleMessageStamps, sampleSummitId } from '../../db/sample/webhooks';
import { attendeeQuery, attendeeRegistered } from '../attendees';
import { orderPaid, orderQuery } from '../orders';
import { retryDelaysSeconds } from '../platform/retry-schedule';
import type { PastStamp } from '../platform/storage/message-emitter';
import { encryptSecret, newSigningSecret } from './signing-secrets';

/** Where the sample's messages say its tickets are: they were never sent, so on no real service. */
const sampleOrigin = 'https://tickets.example.org';

interface SampleWebhooks {
  workspaceId: string;
  now: Date;
  /** Encrypts the sample endpoints' secrets; without it they have none (the deployment has no master key). */
  secretKey: Buffer | null;
  /** The key the subscriptions and endpoints are made by (the demonstration key); null: the operator. */
  keyId: string | null;
}

export async function addSampleWebhooks(db: Db, options: SampleWebhooks): Promise<void> {
  const { workspaceId, secretKey } = options;
  const summitId = sampleSummitId(workspaceId);
  // Messages about the summit's first registrations and paid orders, days ago.
  const summit = await db
    .selectFrom('events')
    .selectAll()
    .where('id', '=', summitId)
    .executeTakeFirstOrThrow();
  const attendees = await attendeeQuery(db)
    .where('attendees.event_id', '=', summitId)
    .where('attendees.status', '=', 'active')
    .orderBy('attendees.created_utc')
    .limit(4)
    .execute();
  const orders = await orderQuery(db)
    .where('orders.event_id', '=', summitId)
    .where('orders.status', '=', 'paid')
    .orderBy('orders.created_utc')
    .limit(2)
    .execute();
  // Recorded in order, by the emitters of their types, as sent four days ago.
  const records = [
    ...attendees.map(
      (attendee) => (stamp: PastStamp) =>
        attendeeRegistered.recordPast(db, workspaceId, { event: summit, attendee }, sampleOrigin, stamp),
    ),
    ...orders.map(
      (order) => (stamp: PastStamp) =>
        orderPaid.recordPast(db, workspaceId, { event: summit, order }, sampleOrigin, stamp),
    ),
  ];
  const stamps = sampleMessageStamps(workspaceId, options.now, records.length);
  const messages = [];
  for (const [i, record] of records.entries()) messages.push(await record(stamps[i]!));
  await insertSampleWebhooks(db, {
    workspaceId,
    now: options.now,
    keyId: options.keyId,
    secret: () => (secretKey ? encryptSecret(secretKey, newSigningSecret()) : null),
    messages,
    retryDelaysSeconds,
  });
}
