// Which ticket types are on sale at a moment, as the public page shows them: not crew, not retired,
// inside their sales window, in the organiser's order. One rule for the event's page and its form.
import type { SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema';

export function onSaleAt<O>(
  query: SelectQueryBuilder<Database, 'ticket_types', O>,
  now: string,
): SelectQueryBuilder<Database, 'ticket_types', O> {
  return query
    .where('crew', '=', 0)
    .where('retired_utc', 'is', null)
    .where((eb) => eb.or([eb('sales_start_utc', 'is', null), eb('sales_start_utc', '<=', now)]))
    .where((eb) => eb.or([eb('sales_end_utc', 'is', null), eb('sales_end_utc', '>', now)]))
    .orderBy('sort_order')
    .orderBy('id');
}
