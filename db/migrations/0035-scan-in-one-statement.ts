// A door scan in one round trip on PostgreSQL (issue 29): the steward's rules of
// core/checkin/scanner.ts, from the presence read to the first check-in, as one server-side function
// the scan calls in one statement. SQLite keeps the step-by-step path in scanner.ts (its statements
// are calls in the same process, not round trips); the two say the same rules and the check-in tests
// run on both stores. The refusals that need no lock (cancelled, unpaid, notOnList, noAddOn) are
// decided by the caller and passed in. A change to these rules is a new function with a new name in
// a new migration, so processes of the previous version keep calling the one they know during a
// rolling upgrade. SQLite: nothing to make.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect';

// The change position is counted as db/sequence.ts counts it (a transaction-local setting).
const scanFunction = `
create function tessera_scan_v1(
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
begin
  admitted := false;
  door_disagrees := false;
  select inside into was_inside from door_presence
    where door_id = p_door_id and attendee_id = p_attendee_id;
  present := found;

  if p_direction = 'out' then
    result := 'out';
    if was_inside = 1 then
      -- The door's row first, as a scan coming in takes it: two scans of one person, in and out at
      -- the same moment, never hold each other's row.
      perform 1 from doors where id = p_door_id for update;
      -- Changes nothing when a concurrent scan already let them out.
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
    -- The door's place, with its capacity check, in one conditional update.
    update doors set inside = inside + 1
      where id = p_door_id and (capacity is null or inside < capacity);
    get diagnostics changed = row_count;
    entered := changed = 1;
    if not entered then
      result := 'full';
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
        change_seq = tessera_scan_v1.change_seq
      where id = p_attendee_id;
  end if;
end
$$`;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql.raw(scanFunction).execute(db);
}
