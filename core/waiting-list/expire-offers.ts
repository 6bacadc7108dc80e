// Offers that ran out: each entry is marked expired and its place given back, which offers it to the
// next in line (end-entry.ts). Run every minute by the service's schedule (src/jobs.ts) at the
// services' clock, so a place is free again within a minute of its offer's end; each offer in a write
// of its own, so one offer's trouble holds up no other.
import { keylessContext } from '../platform/keyless-actor';
import type { Services } from '../platform/services';
import { endEntry } from './end-entry';

/** The name the activity and the logs give the schedule's work on waiting lists. */
const jobName = 'waiting list (scheduled)';

/** Ends the offers past their time; answers how many. */
export async function expireWaitingOffers(services: Services): Promise<number> {
  const due = await services.db
    .selectFrom('waiting_list_entries')
    .select(['id', 'workspace_id', 'ticket_type_id'])
    .where('status', '=', 'offered')
    .where('offer_expires_utc', '<=', services.clock.now().toISOString())
    .orderBy('offer_expires_utc')
    .limit(1000)
    .execute();
  let expired = 0;
  for (const entry of due) {
    const ctx = keylessContext(services, {
      workspaceId: entry.workspace_id,
      name: jobName,
      scopes: [],
      createdUtc: services.clock.now().toISOString(),
      audience: 'any',
    });
    const ended = await services.writes.run((trx, moment) =>
      endEntry({ ...ctx, db: trx, clock: moment }, { ...entry, status: 'offered' }, 'expired'),
    );
    if (ended) expired += 1;
  }
  return expired;
}
