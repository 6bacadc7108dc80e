// Invoices and credit notes as documents a buyer can forward: printed as PDF (pdfkit, DejaVu
// Sans), downloaded by key holders and, through a signed address, by the buyer. The only way into
// core/documents.

export { buyerDocument, buyerDocumentUrl, type DocumentLink, ticketDocumentLinks } from './buyer-documents';
export { documentFileName, pdfOfDocument } from './document-pdf-file';
export { getInvoicePdf } from './get-invoice-pdf';
export { documentFonts } from './pdf-fonts';
