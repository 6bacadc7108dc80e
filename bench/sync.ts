// The sync a client runs: every attendee of one event, oldest change first, 500 a page, following
// nextCursor until it is null, over one HTTPS keep-alive connection.
import { Agent, request } from 'undici';

export interface Pull {
  rows: number;
  pages: number;
  seconds: number;
}

export async function pullAll(
  origin: string,
  ca: string,
  headers: Record<string, string>,
  eventId: string,
): Promise<Pull> {
  const agent = new Agent({ connect: { ca, servername: 'localhost' } });
  const started = performance.now();
  let rows = 0;
  let pages = 0;
  let cursor: string | null = null;
  try {
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await request(`${origin}/api/v1/events/${eventId}/attendees?limit=500${query}`, {
        headers,
        dispatcher: agent,
      });
      const page = (await res.body.json()) as { data: unknown[]; nextCursor: string | null };
      if (res.statusCode !== 200) throw new Error(`sync failed with ${res.statusCode}`);
      rows += page.data.length;
      pages += 1;
      cursor = page.nextCursor;
    } while (cursor);
  } finally {
    await agent.close();
  }
  return { rows, pages, seconds: (performance.now() - started) / 1000 };
}
