// `npm run build` (and `prepare`, which npm runs after `npm install` in a checkout): makes dist/,
//   - dist/tessera.mjs (and its source map): the service, its sources and packages bundled into the
//     one file bin/tessera.mjs runs. Node then reads one file instead of resolving and compiling
//     hundreds, and starts in about half a second where compiling the TypeScript took over two;
//   - dist/scan-app/scan.js: the door scanner page's script, its modules (rest/pages/scan-app/)
//     and the door's rules it shares with the server (core/checkin/door-rules.js) in one file the
//     page loads as /scan/scan.js.
// esbuild is a development dependency: an install without them (--omit=dev) runs the dist/ it was
// given, and `prepare` there says so and builds nothing (--skip-without-esbuild).
import { mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildToolsInstalled, distFiles } from './dist-files.mjs';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');

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

/** The service: src/cli.ts and everything it imports but SQLite's driver, as one ES module. */
async function buildService(build, folder) {
  const outfile = join(folder, 'tessera.mjs');
  await build({
    entryPoints: [join(root, 'src/cli.ts')],
    outfile,
    absWorkingDir: root,
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
  writeFileSync(outfile, oneByteText(readFileSync(outfile, 'utf8')));
}

/**
 * The scanner page's script: one file, so the page and its service worker fetch and keep one
 * script. Left readable (no source map to serve): compressed, it is a few kilobytes.
 */
async function buildScanPage(build, folder) {
  await build({
    entryPoints: [join(root, 'rest/pages/scan-app/scan.js')],
    outfile: join(folder, 'scan-app', 'scan.js'),
    // Its comments name each module by its path from here, whatever folder the build ran in.
    absWorkingDir: root,
    bundle: true,
    platform: 'browser',
    format: 'esm',
    // The phones at a door: browsers of the last few years.
    target: ['chrome100', 'safari15', 'firefox100'],
    charset: 'utf8',
    logLevel: 'warning',
  });
}

/**
 * Builds dist/ anew. Several processes may build at once (tests start many): each builds in a
 * folder of its own and renames each file into place whole, the service's bundle last.
 */
export async function buildAll() {
  const startedAt = new Date();
  const { build } = await import('esbuild');
  const scratch = join(dist, `.build-${process.pid}`);
  mkdirSync(scratch, { recursive: true });
  try {
    await buildScanPage(build, scratch);
    await buildService(build, scratch);
    mkdirSync(join(dist, 'scan-app'), { recursive: true });
    renameSync(join(scratch, 'tessera.mjs.map'), join(dist, 'tessera.mjs.map'));
    for (const file of distFiles) {
      // Dated from the start of the build, so a source saved during it still counts as newer.
      utimesSync(join(scratch, file), startedAt, startedAt);
      renameSync(join(scratch, file), join(dist, file));
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--skip-without-esbuild') && !buildToolsInstalled()) {
    console.log('tessera: esbuild is not installed (no development dependencies): dist/ left as it is.');
  } else {
    await buildAll();
  }
}
