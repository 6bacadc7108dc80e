// The service runs from one JavaScript bundle of its sources and packages (dist/tessera.mjs):
// Node then reads one file instead of resolving and compiling hundreds, and starts in about half
// a second where compiling the TypeScript through a loader took over two. The bundle is rebuilt
// whenever a source, this file or the installed packages are newer than it, so a newcomer never
// runs a build step and a developer never runs a stale one.
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
export const bundleFile = join(dist, 'tessera.mjs');
const sourceFolders = ['src', 'core', 'rest', 'mcp', 'db'];
const otherInputs = ['bin/bundle.mjs', 'package.json', 'node_modules/.package-lock.json'];

function newestIn(folder, newest) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) newest = newestIn(path, newest);
    else newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function mtimeOf(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function newestInput() {
  let newest = 0;
  for (const folder of sourceFolders) newest = newestIn(join(root, folder), newest);
  for (const file of otherInputs) newest = Math.max(newest, mtimeOf(join(root, file)));
  return newest;
}

export function bundleIsFresh() {
  const built = mtimeOf(bundleFile);
  return built > 0 && built >= newestInput();
}

/**
 * The bundle's text with every character beyond Latin-1 written as a \u escape. V8 keeps a script's
 * text for the life of the process, as one byte a character only when every character fits one:
 * a dozen dashes and ellipses in template literals and a package's regular expression kept the 5 MB
 * bundle as 10 MB of two-byte text. An escape means the same in a string, an untagged template, a
 * regular expression and a comment, where esbuild leaves these (a tagged template's raw text would
 * differ: none of the bundle's tags reads it).
 */
export function oneByteText(text) {
  return text.replace(/[\u0100-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Builds the bundle unless it is fresh; answers its path. Several processes may build at once
 * (tests start many): each builds in a folder of its own and renames the result into place.
 */
export async function ensureBundle() {
  if (bundleIsFresh()) return bundleFile;
  const startedAt = new Date();
  const { build } = await import('esbuild');
  const scratch = join(dist, `.build-${process.pid}`);
  mkdirSync(scratch, { recursive: true });
  try {
    await build({
      entryPoints: [join(root, 'src/cli.ts')],
      outfile: join(scratch, 'tessera.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // better-sqlite3 loads its compiled addon from its own folder.
      external: ['better-sqlite3'],
      // Packages written as CommonJS call require(), which an ES module lacks.
      banner: {
        js: "import { createRequire as __tesseraRequire } from 'node:module'; const require = __tesseraRequire(import.meta.url);",
      },
      // No whitespace or comments (the packages' documentation comments are most of them). Names
      // are kept for stack traces.
      minifyWhitespace: true,
      // For stack traces in the sources: run with NODE_OPTIONS=--enable-source-maps.
      sourcemap: 'linked',
      logLevel: 'warning',
    });
    const built = join(scratch, 'tessera.mjs');
    writeFileSync(built, oneByteText(readFileSync(built, 'utf8')));
    renameSync(join(scratch, 'tessera.mjs.map'), `${bundleFile}.map`);
    // Dated from the start of the build, so a source saved during it still counts as newer.
    utimesSync(built, startedAt, startedAt);
    renameSync(built, bundleFile);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return bundleFile;
}
