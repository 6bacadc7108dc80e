// Input fields ticket types and add-ons share when they are made: a price and VAT rate, and places.
import * as v from 'valibot';
import { maxAmount, sortOrderInput } from '../platform/schemas';

export const priceFields = {
  price: v.optional(
    v.pipe(
      v.number(),
      v.minValue(0),
      v.maxValue(maxAmount),
      v.description("VAT included, in the event's currency. Default 0 (free)."),
    ),
  ),
  vatRate: v.optional(
    v.pipe(v.number(), v.minValue(0), v.maxValue(100), v.description('Percent. Default 0.')),
  ),
};

export const placedFields = {
  capacity: v.optional(
    v.nullable(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(2_147_483_647),
        v.description('Null: no limit.'),
      ),
    ),
  ),
  sortOrder: v.optional(sortOrderInput),
};
