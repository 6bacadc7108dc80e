// The building blocks of the import format: keys that name items, references to them, times,
// amounts, and optional fields with the default the API would give them. Objects are strict: a
// field the format does not know is refused (a misspelt field would otherwise be lost silently).
import * as v from 'valibot';
import { multiLine, oneLine } from '../platform/schemas';

export const keyPattern = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,119}$/;

/** The file's own name for an item; the same key imports into the same item again. */
export const key = (what: string) =>
  v.pipe(
    v.string(),
    v.regex(keyPattern),
    v.description(
      `Your key for this ${what} (1 to 120 letters, digits and . _ : @ / -; unique among the ${what}s of its event or community). Importing the file again updates the ${what} with this key instead of adding another.`,
    ),
  );

/** A reference to another item of the file by its key. */
export const ref = (what: string) =>
  v.pipe(v.string(), oneLine, v.description(`The key of the ${what} in this file.`));

export const utc = (description: string) =>
  v.pipe(
    v.string(),
    v.isoTimestamp(),
    v.description(`${description} (ISO 8601 with a zone, e.g. 2026-05-12T07:00:00Z).`),
  );

export const date = (description: string) =>
  v.pipe(v.string(), v.isoDate(), v.description(`${description} (YYYY-MM-DD).`));

export const name = (description: string, max = 200) =>
  v.pipe(v.string(), oneLine, v.trim(), v.minLength(1), v.maxLength(max), v.description(description));

/** Text that may run over several lines (a description, a biography, an address). */
export const words = (description: string, max = 2000) =>
  v.pipe(v.string(), multiLine, v.maxLength(max), v.description(description));

/** One line that may be empty (a summary, a location). */
export const line = (description: string, max = 200) =>
  v.pipe(v.string(), oneLine, v.maxLength(max), v.description(description));

export const whole = (description: string, min = 0, max = 2_147_483_647) =>
  v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max), v.description(description));

export const amount = (description: string) =>
  v.pipe(
    v.number(),
    v.minValue(0),
    v.description(`${description}, in the currency's own decimals (249.5 EUR).`),
  );

/** Kept in lower case, as the API keeps addresses (erasure finds a person by theirs). */
export const email = (description: string) =>
  v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email(), v.maxLength(254), v.description(description));

export const language = v.pipe(
  v.string(),
  v.regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/),
  v.description('Language tag, e.g. en, nb, de-CH.'),
);

/** Optional with the value used when it is absent. */
export const orNull = <S extends v.GenericSchema>(schema: S) => v.optional(v.nullable(schema), null);

export const orFalse = (description: string) =>
  v.optional(v.pipe(v.boolean(), v.description(description)), false);

export const list = <S extends v.GenericSchema>(item: S, description: string, max = 1_000_000) =>
  v.optional(v.pipe(v.array(item), v.maxLength(max), v.description(description)), []);
