/**
 * Fixtures made in code, never downloaded: PDFs (pdfkit), DOCX (docx),
 * encrypted Office files (officecrypto-tool), images of text (@napi-rs/canvas, sharp).
 */
import { createCanvas } from '@napi-rs/canvas';
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import officeCrypto from 'officecrypto-tool';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';

export type PdfPageSpec = { text: string } | { image: Uint8Array } | { blank: true };

/** A PDF whose pages carry a text layer, only a picture (a scan), or nothing. */
export function makePdf(pages: PdfPageSpec[], options: PDFKit.PDFDocumentOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ autoFirstPage: false, size: 'A4', ...options });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    for (const page of pages) {
      doc.addPage();
      if ('text' in page) doc.font('Helvetica').fontSize(12).text(page.text, 72, 72);
      if ('image' in page) doc.image(Buffer.from(page.image), 36, 36, { fit: [523, 770] });
    }
    doc.end();
  });
}

/** Black text on white, one canvas line per input line, as a PNG. */
export async function renderTextPng(lines: string[], options: { fontPx?: number; width?: number } = {}): Promise<Buffer> {
  const fontPx = options.fontPx ?? 32;
  const lineHeight = Math.round(fontPx * 1.6);
  const canvas = createCanvas(options.width ?? 1600, lineHeight * lines.length + fontPx * 2);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#000000';
  context.font = `${fontPx}px DejaVu Sans`;
  lines.forEach((line, i) => context.fillText(line, fontPx, fontPx + lineHeight * (i + 0.8)));
  return canvas.encode('png');
}

/** The same picture in another format (sharp): JPEG, TIFF, WebP or GIF. */
export async function convertImage(png: Uint8Array, format: 'jpeg' | 'tiff' | 'webp' | 'gif'): Promise<Buffer> {
  return sharp(png).toFormat(format).toBuffer();
}

/** A DOCX with a heading, a paragraph with mixed runs, a table and a closing paragraph. */
export async function makeDocx(): Promise<Buffer> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const doc = new Document({
    sections: [{
      children: [
        new Paragraph({ text: 'Quarterly report', heading: HeadingLevel.HEADING_1 }),
        new Paragraph({ children: [new TextRun('Revenue grew in the '), new TextRun({ text: 'third', bold: true }), new TextRun(' quarter at Zentrix.')] }),
        new Paragraph({ text: 'Regional sales', heading: HeadingLevel.HEADING_2 }),
        new Table({ rows: [new TableRow({ children: [cell('Region'), cell('Sales')] }), new TableRow({ children: [cell('Northwind'), cell('120')] })] }),
        new Paragraph({ text: 'Prepared by the finance team.', alignment: AlignmentType.LEFT }),
      ],
    }],
  });
  return Packer.toBuffer(doc);
}

/** A password-protected DOCX, as Word writes it (an OLE compound file with EncryptionInfo and EncryptedPackage). */
export async function encryptDocx(docx: Buffer, password = 'secret'): Promise<Buffer> {
  return officeCrypto.encrypt(docx, { password });
}
