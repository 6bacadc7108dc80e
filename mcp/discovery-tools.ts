// The three tools every connection lists, whatever its toolsets: an assistant finds the tools of
// the toolsets its connection does not list, reads their definitions and runs them, without a new
// connection (the server keeps no sessions, so nothing can be switched on for later).
// Their calls: mcp/discovery-calls.ts.

const closed = { type: 'object', additionalProperties: false } as const;

const toolOutline = {
  type: 'object',
  properties: { name: { type: 'string' }, title: { type: 'string' } },
  required: ['name', 'title'],
};

export const discoveryTools = [
  {
    name: 'list_toolsets',
    title: 'List toolsets',
    description:
      'The toolsets of this server, each with the tools this key may call in it (name and title), whether this connection lists them, and the address that does. Any working key may call it.',
    inputSchema: { ...closed, properties: {} },
    outputSchema: {
      type: 'object',
      properties: {
        toolsets: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              says: { type: 'string' },
              listed: { type: 'boolean' },
              url: { type: 'string' },
              tools: { type: 'array', items: toolOutline },
            },
            required: ['name', 'says', 'listed', 'url', 'tools'],
          },
        },
        allUrl: { type: 'string' },
      },
      required: ['toolsets', 'allUrl'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'describe_tools',
    title: 'Describe tools',
    description:
      'The full definitions (description, input and output schema, hints) of the named tools or of a toolset, as tools/list gives them, for tools this key may call. Any working key may call it.',
    inputSchema: {
      ...closed,
      properties: {
        names: {
          type: 'array',
          items: { type: 'string' },
          description: 'Tool names, as list_toolsets gives them.',
        },
        toolset: { type: 'string', description: 'A toolset name: all its tools this key may call.' },
      },
    },
    outputSchema: {
      type: 'object',
      properties: { tools: { type: 'array', items: { type: 'object' } } },
      required: ['tools'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'call_tool',
    title: 'Call a tool',
    description:
      "Runs a tool by name, listed here or not, as calling it directly: same arguments (idempotencyKey and ifMatch too), refusals and result. It may change or remove data, as that tool says, and needs that tool's scope. Any working key may call it.",
    inputSchema: {
      ...closed,
      properties: {
        name: { type: 'string', description: 'The tool to run.' },
        arguments: {
          type: 'object',
          description: 'Its arguments, as describe_tools gives its input schema.',
        },
      },
      required: ['name'],
    },
    outputSchema: {
      type: 'object',
      description: "The result of the tool it runs, as that tool's output schema says.",
    },
    // Whatever the tool it runs does: it may write, remove and reach outside (the defaults).
    annotations: {},
  },
];

export const discoveryNames = new Set(discoveryTools.map((t) => t.name));
