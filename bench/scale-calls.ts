// How the scale row times calls: one HTTPS keep-alive connection, a warm-up, then at least 50
// calls (or, when one call takes seconds, as many as a time budget allows, never fewer than 3).
import { Agent, request } from 'undici';

export interface Timing {
  p50: number;
  p99: number;
  calls: number;
}

export function timing(latencies: number[]): Timing {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), calls: sorted.length };
}

export class Client {
  readonly agent: Agent;
  constructor(
    readonly origin: string,
    ca: string,
    readonly key: string,
  ) {
    this.agent = new Agent({ connect: { ca, servername: 'localhost' }, connections: 1 });
  }

  /** One call; its answer's body as text, refused unless the status is the expected one. */
  async call(path: string, method: 'GET' | 'POST' = 'GET', body?: string, expect = 200): Promise<string> {
    const res = await request(`${this.origin}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body,
      dispatcher: this.agent,
    });
    const text = await res.body.text();
    if (res.statusCode !== expect)
      throw new Error(`${method} ${path} gave ${res.statusCode}: ${text.slice(0, 500)}`);
    return text;
  }

  async json<T>(path: string, method: 'GET' | 'POST' = 'GET', body?: string, expect = 200): Promise<T> {
    return JSON.parse(await this.call(path, method, body, expect)) as T;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

const budgetMs = Number(process.env.BENCH_SCALE_BUDGET_MS ?? 12_000);

/**
 * Calls a figure is measured over. A p99 of 50 is the slowest call of them (one pause of the
 * machine's decided it); of 200 the second slowest, still one pause's (a whole e-mail's lookup read
 * 4.39 → 7.61 ms from 10,000 to 400,000 attendees at a flat p50 of 0.6–0.7 ms); of 1,000 the tenth.
 */
export const callsPerFigure = 1000;

/** Times `next(i)` calls: 5 warm-up calls (1 when a call takes over a second), then callsPerFigure or the budget. */
export async function timeCalls(next: (i: number) => Promise<unknown>): Promise<Timing> {
  let i = 0;
  const once = async () => {
    const started = performance.now();
    await next(i++);
    return performance.now() - started;
  };
  const first = await once();
  for (let w = 1; w < 5 && first < 1000; w += 1) await once();
  const latencies: number[] = [];
  const started = performance.now();
  while (
    latencies.length < callsPerFigure &&
    (latencies.length < 3 || performance.now() - started < budgetMs)
  ) {
    latencies.push(await once());
  }
  return timing(latencies);
}

/**
 * GET /me every 2 ms on its own connection while `slow` runs on another, `slow` repeated until
 * 3 s have passed and it ran 3 times: how long a light call waits behind a heavy one.
 */
export async function meBeside(
  me: Client,
  slow: () => Promise<unknown>,
): Promise<Timing & { slowMs: number }> {
  // Its connection open and warm first: a handshake is not what this figure is about.
  for (let i = 0; i < 20; i += 1) await me.call('/me');
  let running = true;
  const latencies: number[] = [];
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await me.call('/me');
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 2));
    }
  })();
  const started = performance.now();
  let slowCalls = 0;
  try {
    do {
      await slow();
      slowCalls += 1;
    } while (slowCalls < 3 || performance.now() - started < 3000);
  } finally {
    running = false;
    await loop;
  }
  return { ...timing(latencies), slowMs: (performance.now() - started) / slowCalls };
}
