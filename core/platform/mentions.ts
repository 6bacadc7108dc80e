// A refusal often points the caller to another operation ("return it to draft with … first"). Core
// names the operation, never how a transport reaches it: REST renders the mention as its method and
// path, MCP as its tool name, each from its own table, so neither answer speaks of the other.

/** What a mention needs of an operation: its name (the adapters' key) and its title. */
export interface OperationRef {
  readonly name: string;
  readonly title: string;
}

export interface Mention {
  readonly mention: OperationRef;
}

/** A problem's detail: text, with mentions of operations in it. */
export type DetailPart = string | Mention;

/** How an adapter names an operation in the text it answers. */
export type NameOperation = (operation: OperationRef) => string;

export function mention(operation: OperationRef): Mention {
  return { mention: { name: operation.name, title: operation.title } };
}

/** A detail with mentions: detail`return it to draft with ${mention(setEventStatus)} first.` */
export function detail(
  strings: TemplateStringsArray,
  ...values: (string | number | Mention)[]
): DetailPart[] {
  const parts: DetailPart[] = [];
  strings.forEach((text, i) => {
    if (text) parts.push(text);
    const value = values[i];
    if (value === undefined) return;
    parts.push(typeof value === 'object' ? value : String(value));
  });
  return parts;
}

/** Where no transport names it (the command line, the log): by its title. */
export const byTitle: NameOperation = (operation) => `"${operation.title}"`;

export function renderDetail(parts: readonly DetailPart[], name: NameOperation): string {
  return parts.map((part) => (typeof part === 'string' ? part : name(part.mention))).join('');
}

/** Whether a stored detail (an idempotent answer replayed) holds parts rather than plain text. */
export function isDetailParts(value: unknown): value is DetailPart[] {
  return (
    Array.isArray(value) &&
    value.every(
      (part) =>
        typeof part === 'string' ||
        (typeof part === 'object' && part !== null && typeof part.mention?.name === 'string'),
    )
  );
}
