// The schema protects its own invariants: CHECK constraints on counts (never below zero, never
// above capacity) and on every column with a fixed set of values; one main entrance per event;
// event slugs unique across the deployment (an event's address /e/{slug} is); a speaker's name can
// be erased; idempotency records keep their workspace (for erasure) and lose the columns nothing
// read; the indexes scans, pass holders and their changes are looked up by.
//
// The value lists are written out here, not imported: a migration must say what it did the day it
// ran. A test checks that the constraints match db/values.ts.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { moveTableAside, rebuildTable, withForeignKeysOff } from '../rebuild-table';

const oneOf = (column: string, values: string[]) =>
  `"${column}" in (${values.map((v) => `'${v}'`).join(', ')})`;
const flag = (column: string) => `"${column}" in (0, 1)`;
const optionalOneOf = (column: string, values: string[]) => `"${column}" is null or ${oneOf(column, values)}`;
const atLeast = (column: string, min: number) => `"${column}" >= ${min}`;
const nullOrAtLeast = (column: string, min: number) => `"${column}" is null or "${column}" >= ${min}`;
/** taken (or inside) never above a capacity that is set. */
const withinCapacity = (count: string) => `"capacity" is null or "${count}" <= "capacity"`;

const orderStatuses = [
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
];
const scanResults = [
  'welcome',
  'again',
  'out',
  'cancelled',
  'unpaid',
  'notOnList',
  'noAddOn',
  'full',
  'noReentry',
];
const eventTypes = [
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
];

const tables: Record<string, Record<string, string>> = {
  workspaces: { demonstration: flag('demonstration') },
  api_keys: { rate: nullOrAtLeast('rate_per_minute', 1) },
  key_activity: { transport: oneOf('transport', ['rest', 'mcp']) },
  events: {
    status: oneOf('status', ['draft', 'published']),
    online: flag('online'),
    times: `"ends_utc" > "starts_utc"`,
  },
  outbox: { type: oneOf('type', eventTypes) },
  ticket_types: {
    price: atLeast('price_minor', 0),
    vat: atLeast('vat_rate', 0),
    capacity: nullOrAtLeast('capacity', 0),
    taken: atLeast('taken', 0),
    taken_within_capacity: withinCapacity('taken'),
    max_per_order: `"max_per_order" between 1 and 100`,
    visibility: oneOf('visibility', ['public', 'code', 'hidden']),
    requires_approval: flag('requires_approval'),
    crew: flag('crew'),
  },
  add_ons: {
    price: atLeast('price_minor', 0),
    vat: atLeast('vat_rate', 0),
    capacity: nullOrAtLeast('capacity', 0),
    taken: atLeast('taken', 0),
    taken_within_capacity: withinCapacity('taken'),
  },
  discount_codes: {
    percent: `"percent" is null or "percent" between 1 and 100`,
    amount: nullOrAtLeast('amount_minor', 0),
    percent_or_amount: `("percent" is null) <> ("amount_minor" is null)`,
    max_uses: nullOrAtLeast('max_uses', 1),
    used: atLeast('used', 0),
  },
  questions: {
    kind: oneOf('kind', [
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
    ]),
    required: flag('required'),
    max_length: nullOrAtLeast('max_length', 1),
  },
  orders: {
    status: oneOf('status', orderStatuses),
    source: oneOf('source', ['registration', 'workspace', 'door']),
    erased: flag('erased'),
    total: atLeast('total_minor', 0),
    vat: atLeast('vat_minor', 0),
  },
  attendees: { status: oneOf('status', ['active', 'cancelled']), erased: flag('erased') },
  attendee_add_ons: { quantity: atLeast('quantity', 1) },
  rooms: { capacity: nullOrAtLeast('capacity', 0) },
  speakers: { erased: flag('erased') },
  sessions: {
    kind: oneOf('kind', ['talk', 'keynote', 'workshop', 'panel', 'break', 'meal', 'networking', 'other']),
    times: `"ends_utc" > "starts_utc"`,
    capacity: nullOrAtLeast('capacity', 1),
  },
  doors: {
    kind: oneOf('kind', ['entrance', 'session', 'area']),
    main: flag('main'),
    main_is_entrance: `"main" = 0 or "kind" = 'entrance'`,
    capacity: nullOrAtLeast('capacity', 0),
    inside: atLeast('inside', 0),
    inside_within_capacity: withinCapacity('inside'),
    reentry: flag('reentry'),
  },
  check_ins: {
    direction: oneOf('direction', ['in', 'out']),
    result: oneOf('result', scanResults),
    admitted: flag('admitted'),
    offline: flag('offline'),
  },
  door_presence: { inside: flag('inside') },
  passes: {
    kind: oneOf('kind', ['season', 'bundle']),
    scope: oneOf('scope', ['range', 'list']),
    refund_rule: oneOf('refund_rule', ['beforeFirst', 'organiser', 'none']),
    status: oneOf('status', ['draft', 'onSale', 'closed']),
    capacity: atLeast('capacity', 0),
    price: atLeast('price_minor', 0),
  },
  pass_events: { source: oneOf('source', ['list', 'range']) },
  pass_holders: {
    status: oneOf('status', ['active', 'ended']),
    ended_reason: optionalOneOf('ended_reason', ['refunded', 'cancelled', 'orderGone']),
    erased: flag('erased'),
  },
};

export async function up(db: Kysely<any>): Promise<void> {
  await withForeignKeysOff(db, async (trx) => {
    // Data the new constraints would refuse is put right first.
    // Slugs were unique per workspace; one event keeps each slug (the demonstration workspace's
    // first, then the earliest made) and the others get a suffix from their own id.
    await sql`
      with ranked as (
        select e.id, row_number() over (
          partition by e.slug order by w.demonstration desc, e.created_utc, e.id) as n
        from events e join workspaces w on w.id = e.workspace_id)
      update events set slug = slug || '-' || substr(id, 1, 8)
      where id in (select id from ranked where n > 1)`.execute(trx);
    // One main entrance per event: the first in the organiser's order keeps the mark.
    await sql`
      update doors set main = 0
      where main = 1 and exists (
        select 1 from doors other where other.event_id = doors.event_id and other.main = 1
        and (other.sort_order < doors.sort_order or (other.sort_order = doors.sort_order and other.id < doors.id)))`.execute(
      trx,
    );
    await sql`update ticket_types set taken = 0 where taken < 0`.execute(trx);
    await sql`update add_ons set taken = 0 where taken < 0`.execute(trx);
    await sql`update doors set inside = 0 where inside < 0`.execute(trx);

    for (const [table, checks] of Object.entries(tables)) {
      await rebuildTable(trx, table, {
        checks,
        dropUniqueConstraints: table === 'events' ? ['events_workspace_slug'] : [],
        dropNotNull: table === 'speakers' ? ['name'] : [],
      });
    }

    // Idempotency records: the first answer is now written in the change's own transaction, so
    // there is no running state and no separate status; the workspace is kept for erasure.
    await moveTableAside(trx, 'idempotency_records');
    await trx.schema
      .createTable('idempotency_records')
      .addColumn('api_key_id', 'text', (c) => c.notNull())
      .addColumn('idempotency_key', 'text', (c) => c.notNull())
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('body_hash', 'text', (c) => c.notNull())
      .addColumn('response_body', 'text', (c) => c.notNull())
      .addColumn('created_utc', 'text', (c) => c.notNull())
      .addColumn('expires_utc', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_records_pk', ['api_key_id', 'idempotency_key'])
      .execute();
    await sql`
      insert into idempotency_records
        (api_key_id, idempotency_key, workspace_id, method, path, body_hash, response_body, created_utc, expires_utc)
      select r.api_key_id, r.idempotency_key, k.workspace_id, r.method, r.path, r.body_hash, r.response_body,
             r.created_utc, r.expires_utc
      from idempotency_records__old r join api_keys k on k.id = r.api_key_id
      where r.state = 'done' and r.response_body is not null`.execute(trx);
    await sql`drop table idempotency_records__old`.execute(trx);
    await trx.schema
      .createIndex('idempotency_records_expiry')
      .on('idempotency_records')
      .column('expires_utc')
      .execute();
    await trx.schema
      .createIndex('idempotency_records_workspace')
      .on('idempotency_records')
      .column('workspace_id')
      .execute();

    await trx.schema.createIndex('events_slug').unique().on('events').column('slug').execute();
    await sql`create unique index doors_main_entrance on doors (event_id) where main = 1`.execute(trx);
    await trx.schema.createIndex('check_ins_attendee').on('check_ins').column('attendee_id').execute();
    await trx.schema.createIndex('pass_holders_order').on('pass_holders').column('order_id').execute();
    await trx.schema
      .createIndex('pass_holders_pass_change')
      .on('pass_holders')
      .columns(['pass_id', 'change_seq'])
      .execute();
  });
}

export async function down(): Promise<void> {
  throw new Error('Migration 0005 (constraints) cannot be undone; restore a backup of the data folder.');
}
