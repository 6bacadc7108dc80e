// Stored text put where a line break or a control character would change what the reader sees: a
// mail header or body, a calendar entry, a CSV cell, a page. Rows written before one-line fields
// refused control characters (issue 50) may still hold them; they are neutralised here, never
// rewritten in the database: a run of them becomes one space, so "Eve⏎Bcc: x" stays on one line.

// biome-ignore lint/suspicious/noControlCharactersInRegex: naming the control characters is the point.
const anyControl = /[\u0000-\u001f\u007f\u2028\u2029]+/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: naming the control characters is the point.
const controlButLineOrTab = /[\u0000-\u0008\u000b-\u001f\u007f\u2028\u2029]+/g;

/** A one-line value as shown: every control character (line breaks and tabs too) made a space. */
export function oneLineOf(text: string): string {
  return text.replace(anyControl, ' ');
}

/** A one-line value that may be absent, as shown. */
export function oneLineOrNull(text: string | null): string | null {
  return text === null ? null : oneLineOf(text);
}

/** A multi-line value as shown: line breaks as LF, tabs kept, any other control character a space. */
export function multiLineOf(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(controlButLineOrTab, ' ');
}
