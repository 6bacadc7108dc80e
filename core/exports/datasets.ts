// What an event export can hold: each dataset is a list of the API, read whole through that list's
// own operation (its scope, module and personal-data rule), page after page in the list's order.
import * as v from 'valibot';
import { attendeeSchema, listAttendees } from '../attendees';
import { checkInSchema, listCheckIns } from '../checkin';
import { listOrders, orderSchema } from '../orders';
import type { Ctx } from '../platform/context';
import type { EventReads, InputSchema, Operation } from '../platform/pipeline/operation';
import { maxLimit } from '../platform/pipeline/paging';
import { exportSponsorLeads, leadItemSchema, leadsMaxLimit, listLeads } from '../sponsors';
import { exportedAddOnsSchema, withAddOns } from './attendee-add-ons';

export const datasetNames = ['attendees', 'orders', 'check-ins', 'leads'] as const;
export type DatasetName = (typeof datasetNames)[number];

export interface ListPage {
  data: unknown[];
  nextCursor: string | null;
}

/** A paged list operation: whatever its items, it answers a page of them. */
export type ListOperation = Operation<InputSchema, v.GenericSchema, EventReads, ListPage>;

export interface Dataset {
  /** The list read: every one of its items is a row. */
  list: ListOperation;
  /** With a sponsorId: that sponsor's list (leads only). */
  sponsorList?: ListOperation;
  item: v.GenericSchema;
  /** The largest page the list gives. */
  pageSize: number;
  /** A row's id, so a row the list shows again (changed while the export ran) is written once. */
  idOf(item: unknown): string;
  /** Amounts and the field of their currency. */
  amounts?: Record<string, string>;
  /** What the file adds to a page of the list's items (the attendees' add-ons). */
  extend?(ctx: Ctx, items: unknown[]): Promise<unknown[]>;
}

type Row = Record<string, unknown>;

export const datasets: Record<DatasetName, Dataset> = {
  attendees: {
    list: listAttendees,
    item: v.object({ ...attendeeSchema.entries, addOns: exportedAddOnsSchema }),
    pageSize: maxLimit,
    idOf: (item) => String((item as Row).attendeeId),
    extend: withAddOns,
  },
  orders: {
    list: listOrders,
    item: orderSchema,
    pageSize: maxLimit,
    idOf: (item) => String((item as Row).orderId),
    amounts: { total: 'currency', vat: 'currency' },
  },
  'check-ins': {
    list: listCheckIns,
    item: checkInSchema,
    pageSize: maxLimit,
    idOf: (item) => String((item as Row).checkInId),
  },
  leads: {
    list: listLeads,
    sponsorList: exportSponsorLeads,
    item: leadItemSchema,
    pageSize: leadsMaxLimit,
    idOf: (item) => String(((item as Row).lead as Row).leadId),
  },
};
