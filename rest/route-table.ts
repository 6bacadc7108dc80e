// A REST route: method, path, the core operation it runs, and its success status. Everything else
// (scope, problems, ETag, If-Match, idempotency) is the operation's own declaration.
import type * as v from 'valibot';
import type { AnyOperation, EventReads, InputSchema, Operation } from '../core/platform/pipeline/operation';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** D: what the route's operation answers. */
export interface RouteOptions<D = unknown> {
  /** Success status (default 200); 204 answers no body. */
  status?: number;
  /**
   * The Location header of the answer (the address of what was made), from the answer: typed by
   * the operation where the route is declared; the router hands it what that operation answered.
   */
  location?(data: D): string;
}

export interface Route extends RouteOptions {
  method: Method;
  /** The area it belongs to: its tag in the OpenAPI document and its section in the reference. */
  tag: string;
  /** Koa path below /api/v1, e.g. /events/:eventId */
  path: string;
  operation: AnyOperation;
}

const route =
  (method: Method) =>
  <I extends InputSchema, O extends v.GenericSchema, W extends EventReads, D>(
    path: string,
    operation: Operation<I, O, W, D>,
    options: RouteOptions<D> = {},
  ): Route => ({
    method,
    tag: '',
    path,
    operation,
    ...options,
  });

/** An area of the API: a name and what a reader finds there. */
export interface Area {
  name: string;
  description: string;
}

/** The routes of one area, tagged with its name. */
export function area(of: Area, list: Route[]): Route[] {
  return list.map((r) => ({ ...r, tag: of.name }));
}

export const get = route('GET');
export const post = route('POST');
export const patch = route('PATCH');
export const put = route('PUT');
export const del = route('DELETE');

export const apiBase = '/api/v1';

/** /events/:eventId -> /events/{eventId} */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, '{$1}');
}

export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
}
