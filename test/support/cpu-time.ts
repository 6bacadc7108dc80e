// Records what each test file cost in CPU (its test process and the child processes it waited
// for: Chromium, spawned `tessera` commands), beside the wall time in vitest's JSON report, so a
// slow run can be told apart from a busy machine. One line per file in .tmp/test-cpu.jsonl;
// `npx tsx test/support/timings.ts` prints both.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
// From this file's start: several test files may run one after another in one process.
let startedAt = performance.now();
let cpuAtStart = process.cpuUsage();
let childrenAtStart = childrenCpuSeconds();

beforeAll(() => {
  startedAt = performance.now();
  cpuAtStart = process.cpuUsage();
  childrenAtStart = childrenCpuSeconds();
});

/** CPU seconds of the waited-for children (utime+stime of /proc/self/stat's cutime, cstime). */
function childrenCpuSeconds(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of the whole line; after the command name they are the 14th and 15th.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return 0;
  }
}

afterAll(() => {
  const usage = process.cpuUsage(cpuAtStart);
  const file = expect.getState().testPath;
  if (!file) return;
  const line = {
    file: relative(root, file),
    cpuSeconds: Math.round((usage.user + usage.system) / 1e4) / 100,
    childCpuSeconds: Math.round((childrenCpuSeconds() - childrenAtStart) * 100) / 100,
    wallSeconds: Math.round(performance.now() - startedAt) / 1000,
  };
  mkdirSync(join(root, '.tmp'), { recursive: true });
  appendFileSync(join(root, '.tmp', 'test-cpu.jsonl'), `${JSON.stringify(line)}\n`);
});
