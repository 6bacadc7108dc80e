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
 * The two kinds of text a person gives (issue 50, item 4). A one-line field (a name, a title, a
 * city) holds no control character at all: C0 (U+0000–U+001F), DEL, nor the Unicode line and
 * paragraph separators (U+2028, U+2029), so nothing a visitor types can start a new line in a mail
 * header, a mail body, a calendar entry or a CSV cell. A multi-line field (a description, a note, an
 * answer) may hold line breaks (LF or CRLF) and tabs, and no other control character. Checked by a
 * pattern (no transform), so the JSON Schema says the rule as `pattern`. Lone surrogates and NUL are
 * refused before any schema, for every string of a body (faithful-text.ts).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: naming the control characters is the point.
export const oneLinePattern = /^[^\u0000-\u001f\u007f\u2028\u2029]*$/;
export const oneLineMessage = 'Must be one line, without line breaks, tabs or other control characters.';
// biome-ignore lint/suspicious/noControlCharactersInRegex: naming the control characters is the point.
export const multiLinePattern = /^(?:[^\u0000-\u0008\u000b-\u001f\u007f]|\r\n)*$/;
export const multiLineMessage =
  'May hold line breaks and tabs, but no other control characters (such as a lone carriage return).';

/** The check of a one-line field, for a pipe: `v.pipe(v.string(), oneLine, v.maxLength(200))`. */
export const oneLine: LineCheck = v.regex(oneLinePattern, oneLineMessage);
/** The check of a multi-line field, for a pipe. */
export const multiLine: LineCheck = v.regex(multiLinePattern, multiLineMessage);
/** Either check, for a helper that makes fields of both kinds. */
export type LineCheck = v.RegexAction<string, string>;

/**
 * The same rules for text no schema types (answers to questions, whose kind says which): the
 * message naming what is wrong, or null when the text keeps the rule.
 */
export function lineFault(text: string, lines: 'one' | 'multi'): string | null {
  if (lines === 'one') return oneLinePattern.test(text) ? null : oneLineMessage;
  return multiLinePattern.test(text) ? null : multiLineMessage;
}

/** One line of text a person gives, such as a name or a city. */
export const oneLineText = (description: string) => v.pipe(v.string(), oneLine, v.description(description));
/** A person's name as they give it (a speaker, a member, a crew member): one line, 1–200 characters. */
export const personName = v.pipe(
  v.string(),
  oneLine,
  v.minLength(1),
  v.maxLength(200),
  v.description('Their name. Personal data.'),
);
/** Text a person gives that may run over several lines, such as a description or a note. */
export const multiLineText = (description: string) =>
  v.pipe(v.string(), multiLine, v.description(description));

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
