import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';
import { CaptureRejected } from '../../core/errors.js';
import type { Deadline } from './deadline.js';
import type { ExtractionLimits } from './limits.js';
import { tidyLines } from './normalize.js';
import type { OcrImage } from './ocr-ports.js';

/** Font and CMap data ship inside pdfjs-dist: read from disk, never fetched. */
const PDFJS_DIR = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/** One page of a PDF's text layer; `needsOcr` when it has no text but draws something (a scan). */
export interface PdfPageText {
  pageNumber: number;
  text: string;
  needsOcr: boolean;
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/** Operators that put ink on a page: a page without text that uses none of them is blank. */
const paintingOperators = (OPS: PdfJs['OPS']) =>
  new Set<number>(
    [
      OPS.paintImageXObject,
      OPS.paintInlineImageXObject,
      OPS.paintImageMaskXObject,
      OPS.paintImageXObjectRepeat,
      OPS.paintImageMaskXObjectRepeat,
      OPS.paintImageMaskXObjectGroup,
      OPS.paintInlineImageXObjectGroup,
      OPS.paintSolidColorImageMask,
      OPS.constructPath,
      OPS.fill,
      OPS.eoFill,
      OPS.stroke,
      OPS.fillStroke,
      OPS.eoFillStroke,
      OPS.shadingFill,
      OPS.rectangle,
    ].filter((op): op is number => typeof op === 'number'),
  );

/**
 * pdf.js, and the canvas pages are rendered on for OCR, load with the first
 * PDF rather than with this module: they are the bulk of the ingest Lambda's
 * cold start (pdf.js alone 150 ms, 350 ms with its source map), which the
 * function then pays only when a PDF comes.
 */
let pdfjs: Promise<{ getDocument: PdfJs['getDocument']; painting: Set<number> }> | undefined;
const loadPdfjs = () =>
  (pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs').then((lib) => ({
    getDocument: lib.getDocument,
    painting: paintingOperators(lib.OPS),
  })));
let canvas: Promise<typeof import('@napi-rs/canvas')> | undefined;
const loadCanvas = () => (canvas ??= import('@napi-rs/canvas'));

/** An open PDF: its pages' text layers, and page rendering for OCR. */
export class PdfFile {
  private constructor(
    private readonly doc: PDFDocumentProxy,
    private readonly limits: ExtractionLimits,
    private readonly painting: Set<number>,
  ) {}

  /** Opens the PDF (a copy of the bytes: pdf.js may detach the buffer it is given). */
  static async open(bytes: Uint8Array, limits: ExtractionLimits, deadline: Deadline): Promise<PdfFile> {
    const { getDocument, painting } = await loadPdfjs();
    const task = getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
      maxImageSize: limits.maxImagePixels,
      standardFontDataUrl: `${join(PDFJS_DIR, 'standard_fonts')}/`,
      cMapUrl: `${join(PDFJS_DIR, 'cmaps')}/`,
      cMapPacked: true,
    });
    try {
      return new PdfFile(await deadline.race(task.promise), limits, painting);
    } catch (error) {
      void task.destroy();
      throw pdfReject(error);
    }
  }

  get pageCount(): number {
    return this.doc.numPages;
  }

  /** Reads every page's text layer, one line per text line pdf.js reports. */
  async textLayer(deadline: Deadline): Promise<PdfPageText[]> {
    const pages: PdfPageText[] = [];
    for (let pageNumber = 1; pageNumber <= this.doc.numPages; pageNumber += 1) {
      deadline.check();
      try {
        const page = await deadline.race(this.doc.getPage(pageNumber));
        const text = linesOf((await deadline.race(page.getTextContent())).items);
        const needsOcr = !text.trim() && (await this.paints(page, deadline));
        pages.push({ pageNumber, text, needsOcr });
        page.cleanup();
      } catch (error) {
        throw pdfReject(error);
      }
    }
    return pages;
  }

  /** Renders one page as a grey PNG at the OCR resolution, within the pixel limits. */
  async renderForOcr(pageNumber: number, deadline: Deadline): Promise<OcrImage> {
    try {
      const page = await deadline.race(this.doc.getPage(pageNumber));
      const unit = page.getViewport({ scale: 1 });
      const longest = Math.max(unit.width, unit.height);
      const area = unit.width * unit.height;
      const scale = Math.min(
        this.limits.ocrRenderDpi / 72,
        this.limits.ocrMaxSidePx / longest,
        Math.sqrt(this.limits.maxImagePixels / area),
      );
      const viewport = page.getViewport({ scale });
      const { createCanvas } = await loadCanvas();
      const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
      const context = canvas.getContext('2d');
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, canvas.width, canvas.height);
      await deadline.race(page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise);
      page.cleanup();
      return { png: await canvas.encode('png'), width: canvas.width, height: canvas.height };
    } catch (error) {
      throw pdfReject(error);
    }
  }

  async close(): Promise<void> {
    await this.doc.destroy().catch(() => undefined);
  }

  private async paints(page: PDFPageProxy, deadline: Deadline): Promise<boolean> {
    const operators = await deadline.race(page.getOperatorList());
    return operators.fnArray.some((op) => this.painting.has(op));
  }
}

/** Joins text items into lines: pdf.js marks line ends, and a jump in baseline also starts a line. */
function linesOf(items: ReadonlyArray<TextItem | { type: string }>): string {
  let text = '';
  let lastY: number | null = null;
  for (const item of items) {
    if (!('str' in item)) continue;
    const y = item.transform[5] as number;
    if (
      lastY !== null &&
      item.str &&
      Math.abs(y - lastY) > Math.max(2, (item.height || 0) * 0.5) &&
      !text.endsWith('\n')
    )
      text += '\n';
    text += item.str;
    if (item.hasEOL) text += '\n';
    if (item.str) lastY = y;
  }
  return tidyLines(text);
}

/** pdf.js errors by name: a password prompt is an encrypted file; any other failure is a malformed one. */
function pdfReject(error: unknown): CaptureRejected {
  if (error instanceof CaptureRejected) return error;
  const name = (error as { name?: string } | null)?.name;
  if (name === 'PasswordException') return new CaptureRejected('encrypted_document', 'the PDF is password-protected');
  return new CaptureRejected('extraction_failed', 'the PDF is corrupt, truncated or malformed');
}

/** Joins page texts into the document text: a blank line between pages, blank pages dropped. */
export function joinPages(pages: readonly string[]): string {
  return pages
    .map((page) => (page.trim() ? page : ''))
    .filter(Boolean)
    .join('\n\n');
}
