// The dispatcher takes the outbox's waiting messages through the partial index that holds them
// alone and in order (migration 0040, core/webhooks/waiting-messages.ts). Through the
// (dispatched_utc, id) index PostgreSQL read every waiting entry, dead ones of messages just taken
// among them, and sorted them all for each batch (4.8 ms a batch at an event's door). Both stores:
// after thousands of messages taken, a batch comes oldest first, from that index, with no sort.
import { CompiledQuery, sql } from 'kysely';
import { beforeAll, expect, it } from 'vitest';
import { newId } from '../../core/platform/ids';
import { takeWaitingMessages, waitingMessages } from '../../core/webhooks/waiting-messages';
import { insertRows } from '../../db/prepared';
import { raceHarness } from '../support/race-harness';
import { onPostgres } from '../support/test-store';

const { db } = raceHarness('Waiting messages');
const taken = 3_000;
const waiting = 20;

beforeAll(async () => {
  const at = '2026-11-26T10:00:00.000Z';
  const { id: workspaceId } = await db().selectFrom('workspaces').select('id').executeTakeFirstOrThrow();
  const rows = Array.from({ length: taken + waiting }, () => ({
    message_id: `msg_${newId().replaceAll('-', '')}`,
    workspace_id: workspaceId,
    event_id: null,
    type: 'checkin.created' as const,
    payload: '{}',
    created_utc: at,
    dispatched_utc: null,
  }));
  for (let i = 0; i < rows.length; i += 200) await insertRows(db(), 'outbox', rows.slice(i, i + 200));
  // Taken as the dispatcher takes them: written waiting, then marked.
  const { last } = await db()
    .selectFrom('outbox')
    .select((eb) => eb.fn.max('id').as('last'))
    .executeTakeFirstOrThrow();
  await db()
    .updateTable('outbox')
    .set({ dispatched_utc: at })
    .where('id', '<=', Number(last) - waiting)
    .execute();
  if (onPostgres) await sql`analyze outbox`.execute(db());
});

it('reads a batch of waiting messages oldest first from the index of waiting messages, without a sort', async () => {
  const batch = await waitingMessages(db(), 500).execute();
  expect(batch).toHaveLength(waiting);
  expect(batch.map((m) => m.id)).toEqual([...batch.map((m) => m.id)].sort((a, b) => a - b));

  const { sql: text, parameters } = waitingMessages(db(), 500).compile();
  const explain = (prefix: string) =>
    db().executeQuery<any>(CompiledQuery.raw(`${prefix} ${text}`, [...parameters]));
  if (onPostgres) {
    const plan = (await explain('explain')).rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan, plan).toMatch(/Index Scan using outbox_waiting/);
    expect(plan).not.toMatch(/Sort/);
  } else {
    const plan = (await explain('explain query plan')).rows.map((r) => r.detail).join('\n');
    expect(plan).toMatch(/outbox_waiting/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  }
});

it('takes a batch in one statement: marked fanned out, answered oldest first, never taken twice', async () => {
  const now = '2026-11-26T10:00:01.000Z';
  const first = await db()
    .transaction()
    .execute((trx) => takeWaitingMessages(trx, 15, now));
  expect(first).toHaveLength(15);
  expect(first.map((m) => m.id)).toEqual([...first.map((m) => m.id)].sort((a, b) => a - b));
  const rest = await db()
    .transaction()
    .execute((trx) => takeWaitingMessages(trx, 15, now));
  expect(rest).toHaveLength(waiting - 15);
  expect(Math.min(...rest.map((m) => m.id))).toBeGreaterThan(Math.max(...first.map((m) => m.id)));
  expect(await waitingMessages(db(), 500).execute()).toEqual([]);
  const marked = await db().selectFrom('outbox').select('id').where('dispatched_utc', '=', now).execute();
  expect(marked.map((m) => m.id).sort((a, b) => a - b)).toEqual([...first, ...rest].map((m) => m.id));
});
