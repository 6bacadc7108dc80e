// The pages' packaged files (db/packaged-files.ts reads them): Scalar's reference bundle, jsQR and
// the scanner page's own files (its script bundled with the door's rules by the build).
import { fileBesideEntry, installedFile, packagedFiles, projectFile } from '../../db/packaged-files';

const scanAppFile = (file: string) => ({ path: projectFile('rest', 'pages', 'scan-app', file) });

export const pageFiles = packagedFiles({
  // The package exports no path to it: it sits beside the module entry (dist/index.js).
  'scalar-standalone.js': { path: fileBesideEntry('@scalar/api-reference', 'browser', 'standalone.js') },
  'jsQR.js': { path: installedFile('jsqr', 'dist', 'jsQR.js') },
  // The page's script: its modules bundled by the build (bin/build.mjs) into one file.
  'scan-app/scan.js': { path: projectFile('dist', 'scan-app', 'scan.js') },
  'scan-app/scan.css': scanAppFile('scan.css'),
  'scan-app/sw.js': scanAppFile('sw.js'),
  'scan-app/icon.svg': scanAppFile('icon.svg'),
  'scan-app/icon-192.png': scanAppFile('icon-192.png'),
  'scan-app/icon-512.png': scanAppFile('icon-512.png'),
  'scan-app/manifest.webmanifest': scanAppFile('manifest.webmanifest'),
});

export type PageFileName = keyof typeof pageFiles.files;
