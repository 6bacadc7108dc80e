// The one JSON body reader, for the REST API and the MCP endpoint alike. It reads the bytes decoded
// by their Content-Encoding (core/platform/request-body.ts: gzip, deflate, br; another coding 415),
// and refuses, before anything walks the body: a body over 1 MB as sent or as decoded (413), a
// charset other than UTF-8, bytes that are not UTF-8, nesting deeper than 32 levels, and text JSON
// cannot carry faithfully (NUL characters and lone surrogates). All of those are 400 invalidBody.
import type { Context, Middleware } from 'koa';
import { decodeUtf8, textFaults } from '../../core/platform/faithful-text';
import { problem } from '../../core/platform/problems';
import { readRequestBody } from '../../core/platform/request-body';

export const maxBodyBytes = 1024 * 1024;
/** Deepest nesting of objects and arrays a body may have; no operation needs more than a few. */
export const maxJsonDepth = 32;

const jsonTypes = ['application/json', 'application/merge-patch+json', '+json'];

function hasBody(ctx: Context): boolean {
  return Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
}

/** Reads a JSON body into ctx.request.body; bodies of other types are left for the adapter to refuse. */
export function jsonBody(): Middleware {
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && hasBody(ctx) && ctx.is(jsonTypes)) {
      const charset = ctx.request.charset;
      if (charset && !/^utf-?8$/i.test(charset))
        throw problem('invalidBody', `Send the body in UTF-8, not ${charset}.`);
      const bytes = await readRequestBody(ctx.req, maxBodyBytes);
      (ctx.request as unknown as { body: unknown }).body = parseJson(bytes);
    }
    await next();
  };
}

export function parseJson(bytes: Buffer): unknown {
  const text = decodeUtf8(bytes);
  if (text === null) throw problem('invalidBody', 'The body is not valid UTF-8.');
  if (depthOf(text) > maxJsonDepth)
    throw problem('invalidBody', `The body nests deeper than ${maxJsonDepth} levels.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw problem('invalidBody', 'The body is not valid JSON.');
  }
  // The rule every JSON door keeps (the import too): NUL characters and lone surrogates refused.
  const [fault] = textFaults(value, 1);
  if (fault) throw problem('invalidBody', `Text in the body ${fault.fault}.`);
  return value;
}

/** The deepest nesting of [ and { outside strings, read without parsing (so without recursion). */
function depthOf(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}
