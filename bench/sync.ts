// The sync a client runs: every attendee of one event, oldest change first, 500 a page, following
// nextCursor until it is null, over one HTTPS keep-alive connection; as it comes (identity), or
// compressed when asked (the client then decompresses each page, as a real one does).
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { Agent, request } from 'undici';

export interface Pull {
  rows: number;
  pages: number;
  seconds: number;
  /** Bytes of the answers' bodies on the wire. */
  bytes: number;
}

export type PullEncoding = 'identity' | 'gzip' | 'br';

const decompress = { gzip: promisify(gunzip), br: promisify(brotliDecompress) };

export async function pullAll(
  origin: string,
  ca: string,
  headers: Record<string, string>,
  eventId: string,
  encoding: PullEncoding = 'identity',
): Promise<Pull> {
  const agent = new Agent({ connect: { ca, servername: 'localhost' } });
  const started = performance.now();
  let rows = 0;
  let pages = 0;
  let bytes = 0;
  let cursor: string | null = null;
  try {
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await request(`${origin}/api/v1/events/${eventId}/attendees?limit=500${query}`, {
        headers: encoding === 'identity' ? headers : { ...headers, 'accept-encoding': encoding },
        dispatcher: agent,
      });
      let body = Buffer.from(await res.body.arrayBuffer());
      bytes += body.length;
      const used = res.headers['content-encoding'];
      if (used === 'gzip' || used === 'br') body = await decompress[used](body);
      if (res.statusCode !== 200) throw new Error(`sync failed with ${res.statusCode}`);
      const page = JSON.parse(body.toString('utf8')) as { data: unknown[]; nextCursor: string | null };
      rows += page.data.length;
      pages += 1;
      cursor = page.nextCursor;
    } while (cursor);
  } finally {
    await agent.close();
  }
  return { rows, pages, seconds: (performance.now() - started) / 1000, bytes };
}
