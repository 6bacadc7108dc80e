// Entity tags of single resources: a hash of the representation, so any visible change moves it.
import { createHash } from 'node:crypto';
import type { Ctx } from '../context';
import { problem } from '../problems';

export function etagOf(representation: unknown): string {
  const hash = createHash('sha256')
    .update(JSON.stringify(resourceOf(representation)))
    .digest('base64url');
  return `"${hash.slice(0, 27)}"`;
}

/** True when an If-None-Match or If-Match header value names this tag (or is *). */
export function tagListMatches(header: string, etag: string): boolean {
  const bare = etag.replace(/^W\//, '');
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === bare);
}

/** Conditional writes: refuse with 412 when the caller's If-Match no longer names the current state. */
export function checkIfMatch(ctx: Ctx, current: unknown): void {
  const ifMatch = ctx.request.ifMatch;
  if (ifMatch === undefined) return;
  const etag = etagOf(current);
  if (!tagListMatches(ifMatch, etag)) {
    throw problem('preconditionFailed', 'The resource changed since it was read; read it again and retry.', {
      etag,
    });
  }
}

/**
 * An answer's warnings (core/platform/warnings.ts) are about the write, not the resource: the tag
 * of a change's answer is the tag a GET right after gives.
 */
function resourceOf(representation: unknown): unknown {
  if (representation === null || typeof representation !== 'object' || !('warnings' in representation))
    return representation;
  const { warnings: _, ...resource } = representation as Record<string, unknown>;
  return resource;
}
