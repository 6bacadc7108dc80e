// Resources an assistant can read before it acts: each event's briefing, at
// tessera://events/{eventId}/briefing (a resource template, and one resource per event in
// resources/list, paged as list_events pages). A problem becomes a JSON-RPC error whose data is
// the REST problem object: eventNotFound is "resource not found" (-32002).
import {
  ErrorCode,
  type ListResourcesResult,
  type ReadResourceResult,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { eventBriefing } from '../core/briefing';
import { listEvents } from '../core/events';
import { invoke } from '../core/platform/pipeline/invoke';
import { isProblem } from '../core/platform/problems';
import { callContext, type McpRequest, problemOf } from './call-context';
import { resourceNotFound, rpcError } from './rpc-error';

const briefingPattern = /^tessera:\/\/events\/([^/]+)\/briefing$/;
export const briefingUri = (eventId: string) => `tessera://events/${eventId}/briefing`;

export const resourceTemplates: ResourceTemplate[] = [
  {
    uriTemplate: 'tessera://events/{eventId}/briefing',
    name: 'event-briefing',
    title: 'Event briefing',
    description:
      "One event on a page: basics, sales and their pace, doors and who is in, and what is next on the programme. Parts the key's scopes or the event's modules withhold say so.",
    mimeType: 'text/markdown',
  },
];

/** Runs a core read for a resource or prompt; a problem becomes the JSON-RPC error an MCP client expects. */
export async function asRpcError<T>(req: McpRequest, where: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!isProblem(error)) throw error;
    const body = problemOf(req, error, where);
    const code = error.code === 'eventNotFound' ? resourceNotFound : ErrorCode.InvalidParams;
    throw rpcError(code, body.detail, body);
  }
}

export async function listResources(req: McpRequest, cursor?: string): Promise<ListResourcesResult> {
  return asRpcError(req, 'resources/list', async () => {
    const page = (await invoke(listEvents, callContext(req), { limit: 100, ...(cursor ? { cursor } : {}) }))
      .data;
    return {
      resources: page.data.map((e) => ({
        uri: briefingUri(e.eventId),
        name: `briefing-${e.eventId}`,
        title: `${e.name}: briefing`,
        description: `Briefing of ${e.name} (starts ${e.startsLocal.replace('T', ' ')}, venue time).`,
        mimeType: 'text/markdown',
      })),
      ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    };
  });
}

export async function readResource(req: McpRequest, uri: string): Promise<ReadResourceResult> {
  const match = briefingPattern.exec(uri);
  if (!match)
    throw rpcError(resourceNotFound, `No resource at ${uri}; resources/templates/list gives the addresses.`, {
      uri,
    });
  const text = await asRpcError(req, uri, () => eventBriefing(callContext(req), match[1]!));
  return { contents: [{ uri, mimeType: 'text/markdown', text }] };
}
