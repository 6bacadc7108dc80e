// The core context of one MCP request: the caller, and the request facts REST takes from headers.
import type { Context } from 'koa';
import type { Actor } from '../core/platform/actor';
import type { Ctx } from '../core/platform/context';
import { callContext as coreCallContext } from '../core/platform/pipeline/call-operation';
import { type Problem, problemBody } from '../core/platform/problems';
import type { Services } from '../core/platform/services';
import { toolOperationName } from './operation-names';
import type { ToolsetChoice } from './toolset-choice';

export interface McpRequest {
  services: Services;
  actor: Actor;
  koa: Context;
  /** The toolsets this connection's URL lists. */
  toolsets: ToolsetChoice;
}

/** The request facts REST takes from headers: the public origin and the caller's User-Agent. */
export function requestFacts({ koa }: McpRequest): { origin: string; userAgent?: string } {
  return { origin: koa.state.origin, userAgent: koa.get('user-agent') || undefined };
}

/** The core context of a call made without a tool (a resource read). */
export function callContext(req: McpRequest): Ctx {
  return coreCallContext(req.services, req.actor, requestFacts(req));
}

/** The problem object REST would answer, for a tool error or an error's data. */
export function problemOf({ koa }: McpRequest, p: Problem, instance: string) {
  koa.state.outcome = p.code;
  return problemBody(p, {
    root: koa.state.origin,
    instance: `/mcp#${instance}`,
    traceId: koa.state.traceId,
    nameOperation: toolOperationName,
  });
}
