// The dispatcher writes through the write queue only when there is something to write or to read
// under a write's lock. Messages no endpoint and no automation takes are marked dispatched in one
// transaction; the claim of due deliveries that followed every fan-out ran even with no receiver
// known to have work, an empty transaction each time (on PostgreSQL begin, the change position and
// commit: four round trips after every fan-out, twice a wave). Counted here through a write queue
// that counts the dispatcher's transactions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAttendees } from '../../core/attendees/register-attendees';
import { createEvent } from '../../core/events/create-event';
import type { WriteBatcher } from '../../core/platform/storage/write-batch';
import { createTicketType } from '../../core/tickets/create-ticket-type';
import { Dispatcher } from '../../core/webhooks/dispatcher';
import { eventBody } from '../support/fixtures';
import { raceHarness } from '../support/race-harness';

const { call, ctx, db } = raceHarness('Dispatcher transactions');

let dispatcher: Dispatcher;
let transactions = 0;

beforeAll(async () => {
  const { writes } = ctx().services;
  const counting = {
    run: (work: Parameters<WriteBatcher['run']>[0]) => {
      transactions += 1;
      return writes.run(work);
    },
  } as unknown as WriteBatcher;
  dispatcher = new Dispatcher({ ...ctx().services, writes: counting });
  await dispatcher.start();
});
afterAll(async () => dispatcher?.stop());

/** Resolves once the outbox holds no message waiting to be fanned out, and the dispatcher is idle. */
async function allDispatched(): Promise<void> {
  // Up to a minute: it ends as soon as the outbox is empty, in milliseconds on a quiet machine.
  for (let i = 0; i < 6_000; i += 1) {
    const waiting = await db()
      .selectFrom('outbox')
      .select('id')
      .where('dispatched_utc', 'is', null)
      .execute();
    if (waiting.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  // The rounds after the fan-out (each looks for due deliveries) end within a few milliseconds.
  await new Promise((resolve) => setTimeout(resolve, 150));
}

describe('the dispatcher with messages nobody takes', () => {
  it('fans a wave of them out in one transaction, and opens none for deliveries nobody has', async () => {
    const { eventId } = await call(createEvent, eventBody());
    const { ticketTypeId } = await call(createTicketType, { eventId, name: 'Day' });
    // Its first round looks at the outbox and reads which receivers have deliveries due.
    dispatcher.tick();
    await allDispatched();
    for (let wave = 0; wave < 3; wave += 1) {
      transactions = 0;
      const people = Array.from({ length: 5 }, (_, i) => ({
        ticketTypeId,
        firstName: 'Wave',
        lastName: `${wave}-${i}`,
        email: `wave-${wave}-${i}@example.org`,
      }));
      await call(registerAttendees, { eventId, attendees: people });
      await allDispatched();
      expect(transactions, `wave ${wave}: the dispatcher's transactions`).toBe(1);
    }
  });

  it('on its tick looks at the outbox and reads the due deliveries, once each', async () => {
    transactions = 0;
    dispatcher.tick();
    // Both, however slow the machine; then no third.
    await expect.poll(() => transactions).toBe(2);
    await allDispatched();
    expect(transactions).toBe(2);
  });
});
