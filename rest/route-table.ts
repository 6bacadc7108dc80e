// A REST route: method, path, the core operation it runs, and its transport details only.
import type { AnyOperation } from '../core/platform/operation';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RouteOptions {
  /** Success status (default 200). */
  status?: number;
  /** Single-resource GET answered with an ETag (If-None-Match -> 304). */
  etag?: boolean;
  /** Accepts If-Match (412 preconditionFailed when it no longer matches). */
  ifMatch?: boolean;
  /** Problem codes this route may answer besides the common ones, for the OpenAPI document. */
  errors?: string[];
}

export interface Route extends RouteOptions {
  method: Method;
  /** Koa path below /api/v1, e.g. /events/:eventId */
  path: string;
  operation: AnyOperation;
}

const route =
  (method: Method) =>
  (path: string, operation: AnyOperation, options: RouteOptions = {}): Route => ({
    method,
    path,
    operation,
    ...options,
  });

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
