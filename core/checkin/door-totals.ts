// People let in and scans refused per door, from the totals the database keeps as scans are
// recorded (migration 0033), so the summary does not read the event's every scan.

import type { Ctx } from '../platform/context';

export async function doorTotals(
  ctx: Ctx,
  eventId: string,
): Promise<Map<string, { admitted: number; refused: number }>> {
  const rows = await ctx.db
    .selectFrom('door_totals')
    .innerJoin('doors', 'doors.id', 'door_totals.door_id')
    .select((eb) => [
      'door_totals.door_id',
      eb.fn.sum<number>('door_totals.admitted').as('admitted'),
      eb.fn.sum<number>('door_totals.refused').as('refused'),
    ])
    .where('doors.event_id', '=', eventId)
    .groupBy('door_totals.door_id')
    .execute();
  return new Map(rows.map((r) => [r.door_id, { admitted: Number(r.admitted), refused: Number(r.refused) }]));
}
