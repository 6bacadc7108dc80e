#!/usr/bin/env node
// The npm registry reachable on this project's machines holds only some platform builds of some
// packages (e.g. Biome's and Rollup's native binaries). npm then leaves the other platforms'
// optional dependencies out of package-lock.json, and `npm ci` refuses the lock as out of sync.
// This records each missing optional dependency with the platform it is for, so `npm ci` skips
// it as it would any foreign platform's binary. Run it after changing dependencies:
//   npm install && node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

/** os, cpu and libc of a native binary package, read from its name (the convention these use). */
function platformOf(name) {
  const tail = name.split('/').pop();
  const os = [
    'android',
    'darwin',
    'freebsd',
    'linux',
    'openbsd',
    'openharmony',
    'win32',
    'sunos',
    'aix',
    'netbsd',
  ].find((o) => tail.includes(`-${o}-`));
  const cpu = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el'].find((c) =>
    new RegExp(`-${c}(-|$)`).test(tail),
  );
  if (!os || !cpu) return null;
  const platform = { os: [os], cpu: [cpu] };
  if (os === 'linux') platform.libc = [/musl/.test(tail) ? 'musl' : 'glibc'];
  return platform;
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const at = `node_modules/${dep}`;
    if (packages[at]) continue;
    const platform = platformOf(dep);
    if (!platform) {
      console.error(`${path}: cannot tell the platform of the optional dependency ${dep}; left out.`);
      continue;
    }
    packages[at] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
    added += 1;
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`Recorded ${added} optional platform package(s) missing from package-lock.json.`);
