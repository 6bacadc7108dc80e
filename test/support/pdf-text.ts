// The text of a PDF as a reader's copy-and-paste gives it, read with pdf.js (Mozilla's reader):
// every page's text items joined with single spaces (columns' gaps too), so a test checks what a person would see printed.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export async function pdfText(bytes: Uint8Array): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const page = await document.getPage(n);
    const content = await page.getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  }
  await document.destroy();
  return pages.join('\n');
}

/** The PDF's document information (Title, Author, CreationDate as PDF writes it). */
export async function pdfInfo(bytes: Uint8Array): Promise<Record<string, unknown>> {
  const document = await getDocument({ data: new Uint8Array(bytes) }).promise;
  const { info } = await document.getMetadata();
  await document.destroy();
  return info as Record<string, unknown>;
}
