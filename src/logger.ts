// Structured logs (pino): one line per request with its traceId, and faults with their stack.
import { pino } from 'pino';

export type Logger = pino.Logger;

export function createLogger(level = process.env.TESSERA_LOG_LEVEL ?? 'info'): Logger {
  return pino({ level, base: { service: 'tessera' } });
}
