import { sql } from 'kysely';
import * as v from 'valibot';
import { loadEvent } from '../platform/pipeline/load-event';
import { defineOperation } from '../platform/pipeline/operation';
import {
  applyPlan,
  cursorFields,
  finishPage,
  legacyPageFields,
  planPage,
  readPage,
} from '../platform/pipeline/paging';
import { uuid } from '../platform/schemas';
import { checkInSchema, checkInView, listedResults } from './check-in-view';

export const listCheckIns = defineOperation({
  name: 'listCheckIns',
  title: 'List door scans',
  description:
    "Lists an event's door scans in and out. For only the scans made since, send the answer's after field back as after. Counts: get_check_in_summary. Needs checkins:read.",
  scope: 'checkins:read',
  effect: 'read',
  module: 'checkin',
  doors: true,
  problems: [],
  input: v.object({
    eventId: uuid('The event id.'),
    ...cursorFields,
    ...legacyPageFields,
    after: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        // Ids are whole numbers a JSON number holds exactly; a larger one would overflow the column.
        v.maxValue(Number.MAX_SAFE_INTEGER),
        v.description('Only scans after this checkInId.'),
      ),
    ),
  }),
  output: v.object({
    data: v.array(checkInSchema),
    after: v.pipe(
      v.number(),
      v.integer(),
      v.description(
        'The checkInId to pass as after next time: the last scan in this answer (the highest when newest first), or the after sent when the answer is empty.',
      ),
    ),
    hasMore: v.boolean(),
    nextCursor: v.nullable(v.string()),
    page: v.optional(v.pipe(v.number(), v.integer())),
    pageSize: v.optional(v.pipe(v.number(), v.integer())),
  }),
  async handler(ctx, input) {
    const event = await loadEvent(ctx, input.eventId);
    const after = input.after ?? 0;
    // After the scan `after` in the feed's order, its transaction then its id (db/sequence.ts), which
    // is checkInId order (ids are given in that order: migration 0045); an id not found stands in
    // transaction 0, so nothing is skipped. Looked up first: with values known, the index seeks
    // straight to the position.
    const afterTxn =
      after === 0
        ? 0
        : ((
            await ctx.db
              .selectFrom('check_ins')
              .select('change_txn')
              .where('id', '=', after)
              .executeTakeFirst()
          )?.change_txn ?? 0);
    const plan = planPage(ctx, input, {
      list: 'checkIns',
      filters: { eventId: event.id, after },
      legacy: true,
    });
    const query = ctx.db
      .selectFrom('check_ins')
      .innerJoin('doors', 'doors.id', 'check_ins.door_id')
      .selectAll('check_ins')
      .select(['doors.name as door_name', 'doors.kind as door_kind', 'doors.session_id as door_session_id'])
      .where('check_ins.event_id', '=', event.id)
      .where(
        plan.places.beyond(sql.ref('check_ins.change_txn'), sql.ref('check_ins.id'), '>', [afterTxn, after]),
      )
      .where('check_ins.result', 'in', [...listedResults]);
    const rows = await readPage(
      ctx.db,
      applyPlan(query, plan, {
        txn: 'check_ins.change_txn',
        seq: 'check_ins.id',
        updated: 'check_ins.recorded_utc',
        created: 'check_ins.recorded_utc',
        id: 'check_ins.id',
      }),
    );
    const page = finishPage(
      ctx,
      plan,
      rows,
      (row) => ({
        txn: row.change_txn,
        seq: row.id,
        created: row.recorded_utc,
        id: row.id as unknown as string,
      }),
      (row) =>
        checkInView(row, { name: row.door_name, kind: row.door_kind, session_id: row.door_session_id }),
    );
    // Oldest first, the last scan shown is where the next call goes on from; newest first, the highest.
    const ids = page.data.map((c) => c.checkInId);
    const next = plan.sort === 'changed' ? (ids[ids.length - 1] ?? after) : Math.max(after, ...ids);
    return { ...page, after: next };
  },
});
