// Reads the Prometheus text exposition format (version 0.0.4) line by line, as a scraper does:
// comments (# HELP, # TYPE) apart, each sample is name{label="value",...} value. Label values are
// unescaped (\\, \", \n). Malformed lines fail loudly rather than being skipped.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  samples: Sample[];
  /** # TYPE of each metric family. */
  types: Map<string, string>;
  /** The one sample with this name whose labels include `labels`; undefined when none. */
  value(name: string, labels?: Record<string, string>): number | undefined;
  /** Every sample with this name. */
  all(name: string): Sample[];
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})?\s+(\S+)(\s+-?\d+)?$/;

export function parsePrometheusText(text: string): Scrape {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (type) types.set(type[1]!, type[2]!);
      continue;
    }
    const m = sampleLine.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    samples.push({ name: m[1]!, labels: parseLabels(m[2] ?? '', line), value: parseValue(m[3]!, line) });
  }
  const all = (name: string) => samples.filter((s) => s.name === name);
  return {
    samples,
    types,
    all,
    value(name, labels = {}) {
      const found = all(name).filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v));
      if (found.length > 1)
        throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
      return found[0]?.value;
    },
  };
}

function parseValue(text: string, line: string): number {
  // As Prometheus reads them (Go's ParseFloat): Inf and NaN in any case (prom-client writes "Nan").
  const word = text.toLowerCase();
  if (word === '+inf' || word === 'inf') return Number.POSITIVE_INFINITY;
  if (word === '-inf') return Number.NEGATIVE_INFINITY;
  if (word === 'nan') return Number.NaN;
  const n = Number(text);
  if (Number.isNaN(n)) throw new Error(`not a value: ${line}`);
  return n;
}

function parseLabels(block: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  if (block === '') return labels;
  let i = 1;
  const end = block.length - 1;
  while (i < end) {
    const name = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(block.slice(i));
    if (!name || block[i + name[0].length] !== '=' || block[i + name[0].length + 1] !== '"')
      throw new Error(`bad labels: ${line}`);
    i += name[0].length + 2;
    let value = '';
    for (;;) {
      const c = block[i];
      if (c === undefined) throw new Error(`unterminated label value: ${line}`);
      i += 1;
      if (c === '"') break;
      if (c === '\\') {
        const next = block[i];
        i += 1;
        value += next === 'n' ? '\n' : (next ?? '');
      } else value += c;
    }
    labels[name[0]] = value;
    if (block[i] === ',') i += 1;
  }
  return labels;
}
