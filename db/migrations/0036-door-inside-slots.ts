// A door without a capacity counts the people inside without one hot row on PostgreSQL (issue 29):
// every admission used to update its door's row (`inside = inside + 1`), so all scans at one door
// waited on that row's lock and a second server process added nothing. Now:
// - door_inside holds what scans added to, or took from, an uncapped door's count, in slots chosen
//   by the connection (db/row-triggers.ts, as the totals of 0033): scans on different connections
//   change different rows. A door's inside is its row's count plus its slots
//   (core/checkin/door-inside.ts). The row's count stays the base, so nothing moves for the doors
//   there already and no slot needs filling.
// - A door with a capacity keeps the exact conditional update on its row: the capacity guarantee
//   needs one row to check against. Setting a capacity folds the slots into the row
//   (core/checkin/update-door.ts, which holds the row FOR UPDATE while it does).
// - tessera_scan_v2 says the rules of v1 (0035) with that difference. It reads the capacity under
//   FOR KEY SHARE (the lock the check-in's foreign key takes anyway), so a change of capacity waits
//   for the scans in flight and they for it. v1 stays for the processes of the previous version
//   during a rolling upgrade (what v1 adds to the row's count is counted too).
// SQLite (one writer) keeps the count on the door's row: the table stays empty there.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';
import { addToTotals, totalsSlot } from '../row-triggers';

/** Adds `amount` to the scanning connection's slot of the door (PL/pgSQL). */
const addToSlot = (amount: string, db: Kysely<any>) =>
  addToTotals(
    'door_inside',
    ['door_id', 'slot'],
    ['inside'],
    `SELECT p_door_id, ${totalsSlot(db)}, ${amount}`,
  );

// The change position is counted as db/sequence.ts counts it (a transaction-local setting).
const scanFunction = (db: Kysely<any>) => `
create function tessera_scan_v2(
  p_workspace_id text, p_event_id text, p_door_id text, p_attendee_id text, p_direction text,
  p_refusal text, p_reentry boolean, p_first_entry boolean, p_scanned_utc text, p_offline bigint,
  p_recorded_utc text,
  out result text, out admitted boolean, out check_in_id bigint, out change_seq bigint,
  out door_disagrees boolean)
language plpgsql as $$
declare
  was_inside bigint;
  present boolean;
  changed bigint;
  entered boolean := false;
  door_capacity bigint;
  counted bigint;
begin
  admitted := false;
  door_disagrees := false;
  -- Held until the end: a change of capacity (FOR UPDATE) waits for this scan, or this scan for it
  -- and then reads the capacity it set.
  select capacity into door_capacity from doors where id = p_door_id for key share;
  select inside into was_inside from door_presence
    where door_id = p_door_id and attendee_id = p_attendee_id;
  present := found;

  if door_capacity is null then
    -- No capacity to check: the person's presence row decides, then the connection's slot counts.
    -- In and out take the presence row before the slot, so two scans never wait in a circle.
    if p_direction = 'out' then
      result := 'out';
      if was_inside = 1 then
        -- Changes nothing when a concurrent scan already let them out.
        update door_presence set inside = 0, last_scan_utc = p_scanned_utc
          where door_id = p_door_id and attendee_id = p_attendee_id and inside <> 0;
        get diagnostics changed = row_count;
        if changed = 1 then
          select d.inside + coalesce((select sum(s.inside) from door_inside s where s.door_id = d.id), 0)
            into counted from doors d where d.id = p_door_id;
          door_disagrees := counted <= 0;
          if not door_disagrees then
            ${addToSlot('-1', db)};
          end if;
        end if;
      end if;
    elsif p_refusal is not null then
      result := p_refusal;
    elsif was_inside = 1 then
      result := 'again';
      admitted := true;
    elsif present and not p_reentry then
      result := 'noReentry';
    elsif present then
      -- Back in; a scan at the same moment elsewhere that already let them in keeps the one place.
      update door_presence set inside = 1, last_scan_utc = p_scanned_utc
        where door_id = p_door_id and attendee_id = p_attendee_id and inside <> 1;
      get diagnostics changed = row_count;
      result := 'again';
      admitted := true;
      entered := changed = 1;
    else
      insert into door_presence (door_id, attendee_id, inside, first_in_utc, last_scan_utc)
        values (p_door_id, p_attendee_id, 1, p_scanned_utc, p_scanned_utc)
        on conflict (door_id, attendee_id) do nothing;
      get diagnostics changed = row_count;
      -- Another scanner welcomed this person a moment ago: this scan is a repeat.
      result := case when changed = 1 then 'welcome' else 'again' end;
      admitted := true;
      entered := changed = 1;
    end if;
    if entered then
      ${addToSlot('1', db)};
    end if;
  elsif p_direction = 'out' then
    -- A capacity: v1's rules on the door's row.
    result := 'out';
    if was_inside = 1 then
      -- The door's row first, as a scan coming in takes it: two scans of one person, in and out at
      -- the same moment, never hold each other's row. FOR NO KEY UPDATE, as the scan coming in
      -- updates it: stronger would wait on the key-share locks of the other scans in flight.
      perform 1 from doors where id = p_door_id for no key update;
      update door_presence set inside = 0, last_scan_utc = p_scanned_utc
        where door_id = p_door_id and attendee_id = p_attendee_id and inside <> 0;
      get diagnostics changed = row_count;
      if changed = 1 then
        update doors set inside = inside - 1 where id = p_door_id and inside > 0;
        get diagnostics changed = row_count;
        door_disagrees := changed = 0;
      end if;
    end if;
  elsif p_refusal is not null then
    result := p_refusal;
  elsif was_inside = 1 then
    result := 'again';
    admitted := true;
  elsif present and not p_reentry then
    result := 'noReentry';
  else
    -- The door's place, with its capacity check, in one conditional update (checked again on the
    -- row as it is when this scan gets it: a capacity removed meanwhile admits).
    update doors set inside = inside + 1
      where id = p_door_id and (capacity is null or inside < capacity);
    get diagnostics changed = row_count;
    entered := changed = 1;
    if not entered then
      result := 'full';
    elsif present then
      update door_presence set inside = 1, last_scan_utc = p_scanned_utc
        where door_id = p_door_id and attendee_id = p_attendee_id and inside <> 1;
      get diagnostics changed = row_count;
      result := 'again';
      admitted := true;
      entered := changed = 1;
    else
      insert into door_presence (door_id, attendee_id, inside, first_in_utc, last_scan_utc)
        values (p_door_id, p_attendee_id, 1, p_scanned_utc, p_scanned_utc)
        on conflict (door_id, attendee_id) do nothing;
      get diagnostics changed = row_count;
      result := case when changed = 1 then 'welcome' else 'again' end;
      admitted := true;
      entered := changed = 1;
    end if;
    if admitted and not entered then
      update doors set inside = inside - 1 where id = p_door_id and inside > 0;
      get diagnostics changed = row_count;
      door_disagrees := changed = 0;
    end if;
  end if;

  insert into check_ins (workspace_id, event_id, attendee_id, door_id, direction, result, admitted,
      scanned_utc, offline, recorded_utc)
    values (p_workspace_id, p_event_id, p_attendee_id, p_door_id, p_direction, result,
      case when admitted then 1 else 0 end, p_scanned_utc, p_offline, p_recorded_utc)
    returning id into check_in_id;

  if admitted and p_first_entry then
    change_seq := set_config('tessera.change_seq',
      (coalesce(nullif(current_setting('tessera.change_seq', true), ''), '0')::bigint + 1)::text,
      true)::bigint;
    update attendees set checked_in_utc = p_scanned_utc, updated_utc = p_recorded_utc,
        change_seq = tessera_scan_v2.change_seq
      where id = p_attendee_id;
  end if;
end
$$`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('door_inside')
    .addColumn('door_id', 'text', (c) => c.notNull().references('doors.id').onDelete('cascade'))
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('inside', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('door_inside_pk', ['door_id', 'slot'] as any)
    .execute();
  if (isPostgres(db)) await sql.raw(scanFunction(db)).execute(db);
}
