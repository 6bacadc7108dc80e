// An invoice or credit note as a PDF a buyer can forward to their accounts department: the seller
// as the document printed it, the buyer, number and date, the lines (description, quantity, unit
// price, VAT rate, VAT, amount), the VAT per rate (in a second currency too where the document
// states one), the totals and the seller's footer. Printed from the document's stored view only,
// with its issue time as the file's creation date, so the same document is the same bytes each time.
import { amountText, rateText, vatRows } from './document-figures';
import { fonts } from './pdf-fonts';
import type { PrintedDocument } from './printed-document';

const margin = 50;
const pageBottom = 841.89 - margin;
const width = 595.28 - 2 * margin;

/** The line table's columns: x from the left margin, width, alignment. */
const columns = [
  { title: 'Description', x: 0, w: 185, align: 'left' },
  { title: 'Qty', x: 185, w: 35, align: 'right' },
  { title: 'Unit price', x: 220, w: 80, align: 'right' },
  { title: 'VAT rate', x: 300, w: 50, align: 'right' },
  { title: 'VAT', x: 350, w: 65, align: 'right' },
  { title: 'Amount', x: 415, w: width - 415, align: 'right' },
] as const;

type Doc = PDFKit.PDFDocument;

/** Room for `height` more points on the page, or a new page. */
function room(doc: Doc, height: number): void {
  if (doc.y + height > pageBottom) doc.addPage();
}

function cells(doc: Doc, values: string[], bold = false): void {
  // A gap after each column but the last, which ends at the margin as the totals do.
  const widthOf = (i: number) => columns[i]!.w - (i === columns.length - 1 ? 0 : 4);
  const heights = values.map((value, i) =>
    doc.font(bold ? 'bold' : 'regular').heightOfString(value, { width: widthOf(i) }),
  );
  room(doc, Math.max(...heights) + 4);
  const y = doc.y;
  values.forEach((value, i) => {
    doc.text(value, margin + columns[i]!.x, y, { width: widthOf(i), align: columns[i]!.align });
  });
  doc.x = margin;
  doc.y = y + Math.max(...heights) + 4;
}

function rule(doc: Doc): void {
  doc
    .moveTo(margin, doc.y)
    .lineTo(margin + width, doc.y)
    .lineWidth(0.5)
    .stroke('#888888');
  doc.y += 4;
}

/** Label and value on one line, right-aligned, for the totals. */
function total(doc: Doc, label: string, value: string, bold = false): void {
  room(doc, 16);
  const y = doc.y;
  doc.font(bold ? 'bold' : 'regular');
  doc.text(label, margin + 220, y, { width: 190, align: 'right' });
  doc.text(value, margin + 415, y, { width: width - 415, align: 'right' });
  doc.x = margin;
  doc.y = y + 16;
}

function header(doc: Doc, printed: PrintedDocument): void {
  const { invoice, seller } = printed;
  const top = doc.y;
  doc.font('bold').fontSize(18).text(printed.title, margin, top, { width: 260 });
  doc.font('regular').fontSize(9);
  const facts = [
    `Number: ${invoice.number}`,
    `Issued: ${printed.issuedOn}`,
    `Order: ${printed.orderReference}`,
    `Event: ${printed.eventName}`,
    ...(printed.correctsNumber ? [`Credits invoice: ${printed.correctsNumber}`] : []),
  ];
  doc.text(facts.join('\n'), margin + 280, top, { width: width - 280, align: 'right' });
  const afterFacts = doc.y;
  doc.y = top + 30;
  doc.x = margin;
  doc.font('bold').text(seller.name, { width: 260 });
  doc.font('regular').text(seller.lines.join('\n'), { width: 260 });
  doc.y = Math.max(doc.y, afterFacts) + 14;
  doc.font('bold').text(printed.buyerHeading, margin, doc.y, { width: 300 });
  doc.font('regular').text(printed.buyerLines.join('\n'), { width: 300 });
  doc.moveDown(1.2);
}

function lines(doc: Doc, printed: PrintedDocument): void {
  const { invoice } = printed;
  const money = (value: number) => amountText(value, invoice.currency);
  cells(
    doc,
    columns.map((c) => c.title),
    true,
  );
  rule(doc);
  for (const line of invoice.lines)
    cells(doc, [
      line.name,
      String(line.quantity),
      money(line.unitPrice),
      rateText(line.vatRate),
      money(line.vat),
      money(line.total),
    ]);
  rule(doc);
}

function vatSummary(doc: Doc, printed: PrintedDocument): void {
  const { invoice } = printed;
  const second =
    invoice.vatCurrency !== null && invoice.vatConverted !== null
      ? { currency: invoice.vatCurrency, vat: invoice.vatConverted }
      : null;
  doc.moveDown(0.6);
  room(doc, 40);
  doc.font('bold').text('VAT summary', margin, doc.y);
  doc.moveDown(0.3);
  for (const row of vatRows(invoice.lines, invoice.currency, second)) {
    const stated = `VAT ${rateText(row.rate)} on ${amountText(row.net, invoice.currency)}`;
    total(doc, stated, amountText(row.vat, invoice.currency));
    if (second && row.converted !== null)
      total(
        doc,
        `VAT ${rateText(row.rate)} in ${second.currency}`,
        amountText(row.converted, second.currency),
      );
  }
}

function totals(doc: Doc, printed: PrintedDocument): void {
  const { invoice } = printed;
  const money = (value: number) => amountText(value, invoice.currency);
  doc.moveDown(0.6);
  total(doc, 'Total excluding VAT', money(Number((invoice.total - invoice.vat).toFixed(6))));
  total(doc, 'VAT', money(invoice.vat));
  if (invoice.vatCurrency !== null && invoice.vatConverted !== null) {
    const rate = printed.exchangeNote ? ` (${printed.exchangeNote})` : '';
    total(doc, `VAT in ${invoice.vatCurrency}${rate}`, amountText(invoice.vatConverted, invoice.vatCurrency));
  }
  doc
    .moveTo(margin + 300, doc.y)
    .lineTo(margin + width, doc.y)
    .lineWidth(0.5)
    .stroke('#888888');
  doc.y += 4;
  total(doc, printed.totalLabel, money(invoice.total), true);
}

function footer(doc: Doc, printed: PrintedDocument): void {
  if (!printed.footer) return;
  doc.moveDown(1.5);
  doc.font('regular').fontSize(8.5).fillColor('#333333');
  doc.text(printed.footer, margin, doc.y, { width });
  doc.fillColor('#000000');
}

// Loaded with the first document, not with the service: a start that prints none is 0.4 s quicker.
const loadPdfKit = () => import('pdfkit').then((module) => module.default);
let pdfkit: ReturnType<typeof loadPdfKit> | undefined;

/** The document's PDF bytes. */
export async function invoicePdf(printed: PrintedDocument): Promise<Buffer> {
  pdfkit ??= loadPdfKit();
  const PDFDocument = await pdfkit;
  const { regular, bold } = fonts();
  const doc = new PDFDocument({
    size: 'A4',
    margin,
    // A font of our own from the start: PDFKit's default (Helvetica) would read files we do not carry.
    font: regular as unknown as string,
    lang: 'en',
    info: {
      Title: `${printed.title} ${printed.invoice.number}`,
      Author: printed.seller.name,
      Subject: printed.eventName,
      CreationDate: new Date(printed.invoice.issuedUtc),
    },
  });
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.fontSize(9);
  header(doc, printed);
  lines(doc, printed);
  vatSummary(doc, printed);
  totals(doc, printed);
  footer(doc, printed);
  doc.end();
  return done;
}
