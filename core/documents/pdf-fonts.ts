// The fonts documents are printed in: DejaVu Sans (Latin, Greek and Cyrillic names print as
// written), read as packaged files so the single executable carries them inside. PDFKit is always
// handed these and never its own standard fonts, whose metrics it reads from files of its folder
// that neither the bundle nor the executable has.
import { installedFile, packagedFiles } from '../../db/packaged-files';

export const documentFonts = packagedFiles({
  'DejaVuSans.ttf': { path: installedFile('dejavu-fonts-ttf', 'ttf', 'DejaVuSans.ttf') },
  'DejaVuSans-Bold.ttf': { path: installedFile('dejavu-fonts-ttf', 'ttf', 'DejaVuSans-Bold.ttf') },
});

let loaded: { regular: Buffer; bold: Buffer } | undefined;

/** The two faces, read once a process. */
export function fonts(): { regular: Buffer; bold: Buffer } {
  loaded ??= {
    regular: documentFonts.read('DejaVuSans.ttf'),
    bold: documentFonts.read('DejaVuSans-Bold.ttf'),
  };
  return loaded;
}
