// The public Door resource: what a steward's scanner needs to know of a door.
import * as v from 'valibot';
import type { DoorRow } from '../../db/schema';
import { doorKinds } from '../../db/values';
import { int32, text, uuid } from '../platform/schemas';

export { doorKinds };

export const doorSchema = v.object({
  doorId: uuid('The door id (a check-in list).'),
  name: text('What the steward sees.'),
  kind: v.pipe(v.picklist(doorKinds), v.description('entrance, session or area.')),
  main: v.pipe(
    v.boolean(),
    v.description('The main entrance: where firstCheckInUtc is taken, and the door used when none is named.'),
  ),
  sessionId: v.nullable(uuid('Session the door belongs to.')),
  capacity: v.nullable(int32('How many may be inside at once, when limited.')),
  reentry: v.pipe(v.boolean(), v.description('Whether someone who went out may come in again.')),
  ticketTypeIds: v.pipe(
    v.array(v.pipe(v.string(), v.uuid())),
    v.description('Ticket types it admits; empty: every ticket type.'),
  ),
  addOnIds: v.pipe(
    v.array(v.pipe(v.string(), v.uuid())),
    v.description('Add-ons of which the attendee needs one; empty: none needed.'),
  ),
});

export type DoorView = v.InferOutput<typeof doorSchema>;

export function doorView(row: DoorRow): DoorView {
  return {
    doorId: row.id,
    name: row.name,
    kind: row.kind,
    main: row.main === 1,
    sessionId: row.session_id,
    capacity: row.capacity,
    reentry: row.reentry === 1,
    ticketTypeIds: JSON.parse(row.ticket_type_ids) as string[],
    addOnIds: JSON.parse(row.add_on_ids) as string[],
  };
}
