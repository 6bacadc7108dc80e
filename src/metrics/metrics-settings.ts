// Who may read /metrics (docs/operations.md "Health and metrics"): TESSERA_METRICS_TOKEN, a bearer
// token, and TESSERA_METRICS_ALLOW, client addresses (IPs and CIDR networks). Without either,
// /metrics is off and answers 404 as if absent. Checked at start, naming the value that is wrong.
import { parseNetwork } from '../../core/platform/networks';

export interface MetricsSettings {
  /** The bearer token a scraper sends; null: only the allowed addresses may read. */
  token: string | null;
  /** Networks whose clients may read without the token, as address/prefix. */
  allow: string[];
}

/** Long enough not to be guessed by trying. */
export const minimumTokenLength = 16;

/** Null when /metrics is off; throws `fail(message)` for a setting that cannot be used. */
export function metricsSettingsFrom(
  env: Record<string, string | undefined>,
  fail: (message: string) => Error,
): MetricsSettings | null {
  const token = env.TESSERA_METRICS_TOKEN || null;
  if (token !== null && token.length < minimumTokenLength)
    throw fail(`TESSERA_METRICS_TOKEN must be at least ${minimumTokenLength} characters long.`);
  if (token !== null && /\s/.test(token)) throw fail('TESSERA_METRICS_TOKEN must not contain spaces.');
  const allow = (env.TESSERA_METRICS_ALLOW ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const network = parseNetwork(entry);
      if (!network)
        throw fail(
          `TESSERA_METRICS_ALLOW: "${entry}" is not an IP address or network; give addresses or CIDR networks, such as 127.0.0.1/32,10.0.0.0/8,::1.`,
        );
      return `${entry.split('/')[0]}/${network[1]}`;
    });
  if (token === null && allow.length === 0) return null;
  return { token, allow };
}
