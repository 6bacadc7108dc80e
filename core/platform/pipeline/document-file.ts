// An answer that is one whole file made at once (an invoice's PDF) rather than JSON or a file of
// rows: the operation declares `file` with `document: true` (its one format and media type) and
// its handler answers a DocumentFile. REST sends its bytes as an attachment; MCP hands the
// assistant `about` (the operation's output shape) with the bytes as an embedded resource.

const mark = Symbol('documentFile');

export interface DocumentFileParts {
  /** One of the operation's declared formats. */
  format: string;
  /** The name it is saved under. */
  fileName: string;
  bytes: Buffer;
  /** Where a key holder fetches it again (REST's address), the resource's URI over MCP. */
  uri: string;
  /** What the file is, as the operation's output declares it (the JSON beside the bytes). */
  about: Record<string, unknown>;
}

export type DocumentFile = DocumentFileParts & { readonly [mark]: true };

export function documentFile(parts: DocumentFileParts): DocumentFile {
  return { ...parts, [mark]: true };
}

export function isDocumentFile(value: unknown): value is DocumentFile {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[mark] === true;
}
