// Small valibot building blocks shared by every area's input and output schemas.
import * as v from 'valibot';

export const uuid = (description: string) => v.pipe(v.string(), v.uuid(), v.description(description));
export const dateTime = (description: string) =>
  v.pipe(v.string(), v.isoTimestamp(), v.description(description));
export const localTime = (description: string) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'Must be a venue time such as 2026-05-01T09:00.'),
    v.description(`${description} (YYYY-MM-DDTHH:mm, venue time)`),
  );
/** Texts for patterns several schemas check, said as a person would. */
export const languageTagPattern = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
export const languageTagMessage = 'Must be a language tag such as en or pt-BR.';
export const countryMessage = 'Must be a two-letter country code in capitals, such as NO.';
export const colourMessage = 'Must be a colour as #rrggbb, such as #4c6ef5.';

export const int32 = (description: string) => v.pipe(v.number(), v.integer(), v.description(description));

/**
 * Bounds of numbers a client sends, so none overflows a column on either store (SQLite would keep
 * a too-large whole number as a float; PostgreSQL refuses it): counts and places up to 2^31 - 1,
 * money up to a billion in the currency's own unit.
 */
export const maxWhole = 2_147_483_647;
export const maxAmount = 1_000_000_000;

/** A place in a list, from 0. */
export const sortOrderInput = v.pipe(
  v.number(),
  v.integer(),
  v.minValue(0),
  v.maxValue(maxWhole),
  v.description('Default: last.'),
);
export const text = (description: string) => v.pipe(v.string(), v.description(description));

/**
 * An email address as this service accepts it (valibot's check: a dotted domain with a top-level
 * label of two letters or more), with the same rule stated as a pattern for JSON Schema readers.
 */
export const emailAddress = (description: string) =>
  v.pipe(
    v.string(),
    v.email(),
    v.description(description),
    v.metadata({ pattern: '^[\\w+-]+(?:\\.[\\w+-]+)*@[\\da-zA-Z]+(?:[.-][\\da-zA-Z]+)*\\.[a-zA-Z]{2,}$' }),
  );

export const personalDataSchema = v.pipe(
  v.picklist(['included', 'withheld', 'erased']),
  v.description('included, withheld (the key lacks people:read) or erased (the person deleted their data)'),
);

export const rateLimitSchema = v.object({
  perMinute: int32('Calls a minute, REST and MCP together.'),
  windowSeconds: int32('Length of the counting window in seconds.'),
});

export const noInput = v.object({});
