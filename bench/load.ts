// A small closed-loop load generator: N workers over HTTPS with keep-alive, each sending its next
// request when the previous answer arrived; latencies in milliseconds.
import { Agent, request } from 'undici';

export interface LoadResult {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
  /** Share of one core the load generator itself used: near 1 means it, not the server, was the limit. */
  clientCpu: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** `origin` may be several servers (processes behind one proxy): the workers take turns among them. */
export async function runLoad(
  origin: string | string[],
  ca: string,
  workers: number,
  paths: string[],
  options: {
    method: 'POST' | 'GET';
    headers?: Record<string, string>;
    body?: string;
    ok?: (status: number, body: string) => boolean;
  },
): Promise<LoadResult> {
  const agent = new Agent({
    connect: { ca, servername: 'localhost' },
    connections: workers,
    pipelining: 1,
    keepAliveTimeout: 30_000,
  });
  const origins = typeof origin === 'string' ? [origin] : origin;
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      const server = origins[worker % origins.length];
      for (;;) {
        const i = next++;
        if (i >= paths.length) return;
        const t0 = performance.now();
        const res = await request(`${server}${paths[i]}`, {
          method: options.method,
          headers: { 'content-type': 'application/json', ...(options.headers ?? {}) },
          body: options.method === 'POST' && options.body !== '' ? (options.body ?? '{}') : undefined,
          dispatcher: agent,
        });
        const text = await res.body.text();
        latencies.push(performance.now() - t0);
        if (res.statusCode >= 400 || (options.ok && !options.ok(res.statusCode, text))) failures += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  await agent.close();
  latencies.sort((a, b) => a - b);
  return {
    requests: paths.length,
    seconds,
    perSecond: paths.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failures,
    clientCpu: (cpu.user + cpu.system) / 1e6 / seconds,
  };
}
