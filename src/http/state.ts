import type { Actor } from '../../core/platform/actor';

/** What the shared middleware and the adapters leave on ctx.state for each other. */
export interface CallState {
  traceId: string;
  /** https://host[:port] as the caller reached the service. */
  origin: string;
  actor?: Actor;
  /** Route template or MCP tool, for key activity. */
  operation?: string;
  /** Problem code of an answer that is not an HTTP error (an MCP tool error). */
  outcome?: string;
}
