// Where a run's time went: `npx tsx test/support/timings.ts [report.json] [cpu.jsonl]` after a
// run (defaults: .tmp/vitest-report.json, .tmp/test-cpu.jsonl). Prints the run's wall time, the
// CPU its test processes spent (a figure a busy machine hardly changes, unlike the wall time),
// the files that took longest and the slowest tests beside their time limits.
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..', '..');
const reportFile = process.argv[2] ?? resolve(root, '.tmp/vitest-report.json');
const cpuFile = process.argv[3] ?? resolve(root, '.tmp/test-cpu.jsonl');

interface Report {
  startTime: number;
  numTotalTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    startTime: number;
    endTime: number;
    assertionResults: { fullName: string; duration?: number | null; status: string }[];
  }[];
}
interface Cpu {
  file: string;
  cpuSeconds: number;
  childCpuSeconds: number;
  wallSeconds: number;
}

const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
const cpu = new Map<string, Cpu>();
if (existsSync(cpuFile))
  for (const line of readFileSync(cpuFile, 'utf8').split('\n').filter(Boolean)) {
    const entry = JSON.parse(line) as Cpu;
    cpu.set(entry.file, entry);
  }

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const files = report.testResults.map((f) => {
  const file = relative(root, f.name);
  return { file, wallMs: f.endTime - f.startTime, cpu: cpu.get(file), tests: f.assertionResults };
});
const end = Math.max(...report.testResults.map((f) => f.endTime));
const cpuTotal = [...cpu.values()].reduce((s, c) => s + c.cpuSeconds + c.childCpuSeconds, 0);
console.log(
  `${files.length} files, ${report.numTotalTests} tests (${report.numFailedTests} failed): ` +
    `${seconds(end - report.startTime)} from the first file's start to the last one's end; ` +
    `files' own times add up to ${seconds(files.reduce((s, f) => s + f.wallMs, 0))}; ` +
    `their processes spent ${cpuTotal.toFixed(0)} s of CPU (children included).`,
);
console.log('\nLongest files (wall, CPU of the test process + its children):');
for (const f of [...files].sort((a, b) => b.wallMs - a.wallMs).slice(0, 15)) {
  const c = f.cpu
    ? `${f.cpu.cpuSeconds.toFixed(1)} + ${f.cpu.childCpuSeconds.toFixed(1)} s CPU`
    : 'CPU not noted';
  console.log(`  ${seconds(f.wallMs).padStart(8)}  ${c.padEnd(22)} ${f.file}`);
}
console.log('\nSlowest tests:');
const tests = files.flatMap((f) => f.tests.map((t) => ({ ...t, file: f.file })));
for (const t of tests.sort((a, b) => (b.duration ?? 0) - (a.duration ?? 0)).slice(0, 15))
  console.log(`  ${seconds(t.duration ?? 0).padStart(8)}  ${t.status.padEnd(7)} ${t.file}: ${t.fullName}`);
