// prom-client's default metrics (CPU, memory, event-loop lag, garbage collection, handles) describe
// the process, not one server: one registry per process, made at the first scrape. Per server they
// would start an event-loop monitor and a GC observer for each (tests start many servers) that
// nothing stops. Not prom-client's global registry, which any library could write into.
import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | null = null;

export function processMetrics(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}
