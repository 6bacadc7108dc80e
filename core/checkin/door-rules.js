// A door's own rules, said once for the server and the door scanner page. The server's scans
// (scanner.ts) and the page deciding offline (rest/pages/scan-app/offline-scan.js; the build bundles
// this very file into its script) both call these functions, so a phone without a network
// answers as the door would. Plain JavaScript because the browser runs this very file; its types
// are beside it (door-rules.d.ts). What only the server can know (the door's count: full) stays
// in scanner.ts, and PostgreSQL's tessera_scan_v2 says entryAtDoor's rule again in PL/pgSQL.

/**
 * Why a ticket going in is refused at this door whoever is inside, or null: cancelled, unpaid (its
 * order not paid), notOnList (a ticket type the door does not admit), noAddOn (the door needs one
 * of its add-ons and the ticket holds none). Checked in that order.
 */
export function refusalAtDoor(door, ticket) {
  if (ticket.status === 'cancelled') return 'cancelled';
  if (!ticket.valid) return 'unpaid';
  if (door.ticketTypeIds.length > 0 && !door.ticketTypeIds.includes(ticket.ticketTypeId)) return 'notOnList';
  if (door.addOnIds.length > 0 && !door.addOnIds.some((id) => ticket.addOnIds.includes(id))) return 'noAddOn';
  return null;
}

/**
 * What the door does with a ticket going in that it does not refuse, by where its holder stands at
 * this door: inside already, `again` (no place taken); in before and gone out, `backIn` where the
 * door lets people in again, else `noReentry`; never in, `firstIn`. `backIn` and `firstIn` take a
 * place inside (refused `full` when the door has none left), answered `again` and `welcome`.
 */
export function entryAtDoor(door, presence) {
  if (presence === 'inside') return 'again';
  if (presence === 'out') return door.reentry ? 'backIn' : 'noReentry';
  return 'firstIn';
}
