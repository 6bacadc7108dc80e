// The public PassHolder resource: who holds a pass, through which order on the sales event,
// with the personal-data rule applied to the names.
import * as v from 'valibot';
import type { Db } from '../../db/connect';
import { holderEndedReasons, holderStatuses } from '../../db/values';
import { applyPersonalData, declarePersonal, type Reader } from '../platform/pipeline/personal-data';
import { dateTime, personalDataSchema, text, uuid } from '../platform/schemas';
import { orderStatuses } from '../sales';

/** A holder's names: withheld without people:read; names and email erased with the person. */
export const holderPersonal = declarePersonal({
  resource: 'pass holder',
  idField: 'holderId',
  table: 'pass_holders',
  fields: { firstName: 'first_name', lastName: 'last_name' },
  storedOnly: ['email'],
  emailColumn: 'email',
});

export const holderSchema = v.object({
  holderId: uuid('The holder id.'),
  passId: uuid('The pass id.'),
  status: v.pipe(v.picklist(holderStatuses), v.description('active or ended.')),
  endedReason: v.nullable(
    v.pipe(v.picklist(holderEndedReasons), v.description('Why it ended: refunded, cancelled or orderGone.')),
  ),
  endedUtc: v.nullable(dateTime('When it ended.')),
  orderId: uuid('The order on the sales event.'),
  orderStatus: v.pipe(v.picklist(orderStatuses), v.description('Status of that order.')),
  firstName: v.nullable(text('Personal data: null without people:read.')),
  lastName: v.nullable(text('Personal data: null without people:read.')),
  createdUtc: dateTime('When the pass was taken.'),
  updatedUtc: dateTime('Last change of the holder.'),
  erased: v.boolean(),
  personalData: personalDataSchema,
});

export type HolderView = v.InferOutput<typeof holderSchema>;

/** Holders with the status of their order. */
export function holderQuery(db: Db) {
  return db
    .selectFrom('pass_holders')
    .innerJoin('orders', 'orders.id', 'pass_holders.order_id')
    .selectAll('pass_holders')
    .select('orders.status as order_status');
}

export type HolderJoinedRow = Awaited<ReturnType<ReturnType<typeof holderQuery>['executeTakeFirstOrThrow']>>;

export function holderView(reader: Reader, row: HolderJoinedRow): HolderView {
  return applyPersonalData(
    reader,
    {
      holderId: row.id,
      passId: row.pass_id,
      status: row.status,
      endedReason: row.ended_reason,
      endedUtc: row.ended_utc,
      orderId: row.order_id,
      orderStatus: row.order_status,
      firstName: row.first_name,
      lastName: row.last_name,
      createdUtc: row.created_utc,
      updatedUtc: row.updated_utc,
    },
    holderPersonal,
    row.erased === 1,
  );
}
