// `npm run build:binary`: makes dist/tessera (or --out FILE), one executable file that runs Tessera
// on this OS and processor with nothing installed beside it. It is Node's single executable
// application (https://nodejs.org/api/single-executable-applications.html): a copy of this very
// `node` with a blob injected that holds
//   - the whole service bundled into ONE CommonJS script (Node 20 runs no ES module there, and its
//     `require` reaches Node's built-ins only, so every package goes into the bundle), and
//   - the files the service reads at run time (db/sqlite-driver.ts and rest/pages/page-files.ts
//     declare them) as assets: SQLite's native addon and driver, Scalar's reference bundle, jsQR and
//     the scanner page's files (its script as `npm run build` bundles it into dist/, built first if stale),
//     and the DejaVu fonts invoices are printed in (core/documents/pdf-fonts.ts).
// Build on the OS and processor you deploy to: the addon and the node binary are native code.

import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { oneByteText } from '../bin/build.mjs';
import { ensureBundle } from '../bin/bundle.mjs';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const { values } = parseArgs({
  options: { out: { type: 'string', default: join(root, 'dist', 'tessera') } },
});
const out = resolve(values.out);
const startedAt = performance.now();

// The tables of packaged files are TypeScript: read them through tsx, as bin/tessera.mjs runs sources.
const { register } = await import('tsx/esm/api');
register();
// Each layer declares its own: the database driver's files, and the pages' (with the door's rules).
const { sqliteFiles } = await import('../db/sqlite-driver.ts');
const { pageFiles } = await import('../rest/pages/page-files.ts');
// And the fonts documents (invoices as PDF) are printed in.
const { documentFonts } = await import('../core/documents/pdf-fonts.ts');
const packagedFiles = { ...sqliteFiles.files, ...pageFiles.files, ...documentFonts.files };
const { build } = await import('esbuild');
// dist/ holds the scanner page's script the executable carries.
await ensureBundle();

const scratch = mkdtempSync(join(tmpdir(), 'tessera-binary-'));
try {
  const main = join(scratch, 'tessera.cjs');
  await build({
    entryPoints: [join(root, 'src', 'cli.ts')],
    outfile: main,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // A CommonJS script has no import.meta: the sources' uses (createRequire, finding the project
    // folder) get the executable's own file URL, which is all they need inside it.
    define: { 'import.meta.url': '__tesseraFileUrl', 'import.meta.dirname': '__dirname' },
    banner: { js: "var __tesseraFileUrl = require('node:url').pathToFileURL(__filename).href;" },
    // As bin/bundle.mjs makes the service's bundle: no comments, one byte a character in V8's heap.
    minifyWhitespace: true,
    logLevel: 'warning',
  });
  writeFileSync(main, oneByteText(readFileSync(main, 'utf8')));

  const assets = {};
  for (const [name, file] of Object.entries(packagedFiles)) {
    if (!file.bundled) {
      assets[name] = file.path();
      continue;
    }
    // A package's JavaScript for a worker thread to require from disk: one file, its own
    // requires inside it.
    assets[name] = join(scratch, name);
    await build({
      entryPoints: [file.path()],
      outfile: assets[name],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'warning',
    });
  }

  // The blob: the script, its compiled code (a quarter less CPU to start a command) and the assets.
  const blob = join(scratch, 'tessera.blob');
  const config = join(scratch, 'sea-config.json');
  writeFileSync(
    config,
    JSON.stringify({ main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }),
  );
  execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: 'inherit' });

  // A copy of this node with the blob injected where its fuse says to look.
  const building = `${out}.building-${process.pid}`;
  mkdirSync(dirname(out), { recursive: true });
  copyFileSync(process.execPath, building);
  chmodSync(building, 0o755);
  const { inject } = require('postject');
  await inject(building, 'NODE_SEA_BLOB', readFileSync(blob), {
    sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2',
  });
  // Renamed into place whole, so a running copy or a parallel build never sees half a file.
  renameSync(building, out);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
process.stdout.write(`${JSON.stringify({ built: out, seconds })}\n`);
