/**
 * Fixtures made in code, never downloaded: PDFs (pdfkit), DOCX (docx),
 * encrypted Office files (officecrypto-tool), images of text (@napi-rs/canvas, sharp),
 * and minimal headers of formats that carry no text or that sharp does not write.
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
export async function renderTextPng(
  lines: string[],
  options: { fontPx?: number; width?: number } = {},
): Promise<Buffer> {
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
    sections: [
      {
        children: [
          new Paragraph({ text: 'Quarterly report', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({
            children: [
              new TextRun('Revenue grew in the '),
              new TextRun({ text: 'third', bold: true }),
              new TextRun(' quarter at Zentrix.'),
            ],
          }),
          new Paragraph({ text: 'Regional sales', heading: HeadingLevel.HEADING_2 }),
          new Table({
            rows: [
              new TableRow({ children: [cell('Region'), cell('Sales')] }),
              new TableRow({ children: [cell('Northwind'), cell('120')] }),
            ],
          }),
          new Paragraph({ text: 'Prepared by the finance team.', alignment: AlignmentType.LEFT }),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

/** A password-protected DOCX, as Word writes it (an OLE compound file with EncryptionInfo and EncryptedPackage). */
export async function encryptDocx(docx: Buffer, password = 'secret'): Promise<Buffer> {
  return officeCrypto.encrypt(docx, { password });
}

/* Minimal headers: enough bytes for a format's magic number, nothing more. */

/** A 64-bit ELF executable. */
export const elf = (): Buffer => Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120)]);

/** A Windows PE executable: MZ, and the PE signature where e_lfanew points. */
export const windowsExe = (): Buffer => {
  const bytes = Buffer.alloc(256);
  bytes.write('MZ', 0, 'latin1');
  bytes.writeUInt32LE(0x80, 0x3c);
  bytes.write('PE\0\0', 0x80, 'latin1');
  return bytes;
};

/** A WAV recording (RIFF....WAVEfmt ). */
export const wav = (): Buffer => {
  const bytes = Buffer.alloc(64);
  bytes.write('RIFF', 0, 'latin1');
  bytes.writeUInt32LE(56, 4);
  bytes.write('WAVEfmt ', 8, 'latin1');
  return bytes;
};

/** An MP4 video (an ftyp box of brand isom). */
export const mp4 = (): Buffer => {
  const bytes = Buffer.alloc(64);
  bytes.writeUInt32BE(24, 0);
  bytes.write('ftypisom', 4, 'latin1');
  bytes.write('isomiso2mp41', 12, 'latin1');
  return bytes;
};

/** A HEIC photo (an ftyp box of brand heic). */
export const heic = (): Buffer => {
  const bytes = Buffer.alloc(64);
  bytes.writeUInt32BE(24, 0);
  bytes.write('ftypheic', 4, 'latin1');
  bytes.write('mif1heic', 16, 'latin1');
  return bytes;
};

/** A Windows bitmap: the BM file header and a BITMAPINFOHEADER of a 1x1 picture. */
export const bmp = (): Buffer => {
  const bytes = Buffer.alloc(58);
  bytes.write('BM', 0, 'latin1');
  bytes.writeUInt32LE(58, 2);
  bytes.writeUInt32LE(54, 10);
  bytes.writeUInt32LE(40, 14);
  bytes.writeInt32LE(1, 18);
  bytes.writeInt32LE(1, 22);
  bytes.writeUInt16LE(1, 26);
  bytes.writeUInt16LE(24, 28);
  return bytes;
};

/** A big-endian classic TIFF header (MM 00 2A) with an empty first IFD (sharp writes little-endian only). */
export const tiffBigEndian = (): Buffer => {
  const bytes = Buffer.alloc(64);
  bytes.write('MM', 0, 'latin1');
  bytes.writeUInt16BE(42, 2);
  bytes.writeUInt32BE(8, 4);
  return bytes;
};

/** A BigTIFF header (version 43, 8-byte offsets), little-endian (II 2B 00) or big-endian (MM 00 2B). */
export const bigTiff = (endian: 'le' | 'be'): Buffer => {
  const bytes = Buffer.alloc(64);
  const le = endian === 'le';
  bytes.write(le ? 'II' : 'MM', 0, 'latin1');
  if (le) {
    bytes.writeUInt16LE(43, 2);
    bytes.writeUInt16LE(8, 4);
    bytes.writeBigUInt64LE(16n, 8);
  } else {
    bytes.writeUInt16BE(43, 2);
    bytes.writeUInt16BE(8, 4);
    bytes.writeBigUInt64BE(16n, 8);
  }
  return bytes;
};
