// The scale row's tables: each figure at every size side by side, the ratio largest/smallest, and
// the target (issue 29 item 1) with met or missed.
import { callsPerFigure } from './scale-calls';
import type { SizeFigures } from './scale-size';

interface Row {
  figure: string;
  values: number[];
  unit: string;
  /** Says whether the figures meet the target; undefined when there is none. */
  target?: { text: string; met: (values: number[]) => boolean | undefined };
  /** How many calls each size's figure rests on, shown when fewer than callsPerFigure. */
  calls?: number[];
}

const flat = (values: number[]) => values[values.length - 1]! <= 1.5 * values[0]!;
const flatTarget = { text: 'within 1.5×', met: flat };
/** A ceiling at the largest size and, for a per-request figure, within 1.5× from smallest to largest. */
const ceiling = (ms: number, size: string) => ({
  text: `p99 < ${ms} ms at ${size}; within 1.5×`,
  met: (values: number[]) => values[values.length - 1]! < ms && flat(values),
});

function format(value: number, unit: string): string {
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })}${unit}`;
}

export function scaleRows(sizes: SizeFigures[]): Row[] {
  const largest = `${sizes[sizes.length - 1]!.attendees.toLocaleString('en-US')}`;
  const rows: Row[] = [];
  const timed = (figure: string, name: string, ms?: number) => {
    const t = sizes.map((s) => s.timings[name]!);
    rows.push({ figure: `${figure} p50`, values: t.map((x) => x.p50), unit: ' ms', target: flatTarget });
    rows.push({
      figure: `${figure} p99`,
      values: t.map((x) => x.p99),
      unit: ' ms',
      target: ms === undefined ? flatTarget : ceiling(ms, largest),
      calls: t.map((x) => x.calls),
    });
  };
  timed('Search, surname prefix (Last1)', 'search surname', 50);
  timed('Search, email fragment (person123)', 'search email', 50);
  timed('Search, company (Example)', 'search company', 50);
  timed('Search, no match (zqxjvw)', 'search none', 50);
  timed('List by a whole e-mail address', 'email filter', 20);
  timed('Event statistics', 'statistics', 20);
  timed('Check-in summary', 'check-in summary', 20);
  timed('List page, updatedSince near the newest change', 'updatedSince', 20);
  timed('Deep cursor page (pages 50–52)', 'deep cursor page');
  timed('Door check-in (fresh attendees)', 'door check-in');
  for (const [slow, label] of [
    ['search', 'a search with no match'],
    ['statistics', 'a statistics call'],
    ['CSV export', 'a full CSV export'],
  ] as const) {
    const t = sizes.map((s) => s.meBeside[slow]!);
    rows.push({ figure: `Duration of ${label}`, values: t.map((x) => x.slowMs), unit: ' ms' });
    rows.push({
      figure: `GET /me p99 beside ${label}`,
      values: t.map((x) => x.p99),
      unit: ' ms',
      target: { text: 'p99 < 10 ms', met: (v) => v.every((x) => x < 10) },
      calls: t.map((x) => x.calls),
    });
  }
  rows.push({
    figure: 'First start to first answer',
    values: sizes.map((s) => s.firstStartMs),
    unit: ' ms',
    target: flatTarget,
  });
  rows.push({ figure: 'Import time', values: sizes.map((s) => s.importSeconds), unit: ' s' });
  rows.push({
    figure: 'Import time per 1,000 attendees',
    values: sizes.map((s) => (s.importSeconds * 1000) / s.attendees),
    unit: ' s',
    target: flatTarget,
  });
  rows.push({
    figure: 'Import peak memory (VmHWM)',
    values: sizes.map((s) => s.importPeakMiB),
    unit: ' MiB',
    target: {
      text: '< 1 GB at 400,000',
      // Undefined: a run without 400,000 cannot say.
      met: (v) => (sizes[sizes.length - 1]!.attendees >= 400_000 ? v[v.length - 1]! < 1000 : undefined),
    },
  });
  rows.push({
    figure: 'Server resident memory after the size',
    values: sizes.map((s) => s.serverMiB),
    unit: ' MiB',
  });
  rows.push({
    figure: 'Bytes on disk per attendee',
    values: sizes.map((s) => s.bytesPerAttendee),
    unit: ' B',
  });
  return rows;
}

/** The Markdown table (the same is printed and written to the docs). */
export function scaleTable(sizes: SizeFigures[]): string {
  const rows = scaleRows(sizes);
  const head = sizes.map((s) => `${s.attendees.toLocaleString('en-US')}`);
  const lines = [
    `| Figure | ${head.join(' | ')} | Largest / smallest | Target | |`,
    `|---|${head.map(() => '---:').join('|')}|---:|---|---|`,
  ];
  for (const row of rows) {
    const cells = row.values.map((v, i) => {
      const calls = row.calls?.[i];
      return calls !== undefined && calls < callsPerFigure
        ? `${format(v, row.unit)} (${calls} ${calls === 1 ? 'call' : 'calls'})`
        : format(v, row.unit);
    });
    const ratio = row.values[row.values.length - 1]! / row.values[0]!;
    const met = row.target?.met(row.values);
    const verdict = met === undefined ? (row.target ? 'not measured' : '') : met ? 'met' : '**missed**';
    lines.push(
      `| ${row.figure} | ${cells.join(' | ')} | ${ratio.toFixed(2)}× | ${row.target?.text ?? ''} | ${verdict} |`,
    );
  }
  return lines.join('\n');
}
