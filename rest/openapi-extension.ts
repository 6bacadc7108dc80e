// How the OpenAPI document marks an operation this service adds beyond the published API contract:
// the vendor key for tools, a badge Scalar shows beside the operation's title, and a sentence a
// reader sees at the end of its description.

export const extensionNote =
  "**Extension:** this operation is not in the published Tessera API contract; this service adds it in the contract's style.";

export function extensionMarks(description: string): Record<string, unknown> {
  return {
    description: `${description}\n\n${extensionNote}`,
    'x-tessera-extension': true,
    'x-badges': [{ name: 'Extension', position: 'before', color: '#8a4b00' }],
  };
}
