// HTML made on the server with no client framework: a tagged template that escapes every value it
// is given, unless the value is already HTML (made by this same template, or marked trusted).
const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/**
 * Control characters HTML does not allow in text (all of C0 but tab and line breaks, and DEL): a
 * row stored before one-line fields refused them (issue 50) is shown with a space instead.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: naming the control characters is the point.
const notInHtml = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]+/g;

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => entities[c]!).replace(notInHtml, ' ');
}

type Part = Html | string | number | null | undefined | false | Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

/** html`<p>${name}</p>`: the values are escaped; arrays and nested html`` are joined as HTML. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Html(out);
}

/** Text this service wrote itself (never a value from a request or the database). */
export function trusted(text: string): Html {
  return new Html(text);
}
