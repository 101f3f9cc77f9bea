import { BackendUnavailableError, CaptureRejected } from '../core/errors.js';
import type { ExtractedText, ExtractionInput, OcrEngine, TextExtractor } from '../ports.js';
import { Deadline } from './deadline.js';
import { extractDocx } from './docx.js';
import { imagePageCount, imagePageForOcr } from './images.js';
import { DEFAULT_EXTRACTION_LIMITS, type ExtractionLimits } from './limits.js';
import { tidyLines } from './normalize.js';
import { joinPages, PdfFile } from './pdf.js';
import { sniff } from './sniff.js';
import { extractTextFile } from './text-formats.js';

export interface FileExtractorOptions {
  ocr: OcrEngine;
  limits?: Partial<ExtractionLimits>;
}

/**
 * The extraction pipeline both stacks run: the bytes' real type decides the
 * reader (PDF text layer with OCR for pages without one, DOCX, images by OCR,
 * text formats); every bad file ends in a CaptureRejected with its code.
 */
export class FileExtractor implements TextExtractor {
  readonly limits: ExtractionLimits;
  private readonly ocr: OcrEngine;

  constructor(options: FileExtractorOptions) {
    this.ocr = options.ocr;
    this.limits = { ...DEFAULT_EXTRACTION_LIMITS, ...options.limits };
  }

  async extract(input: ExtractionInput): Promise<ExtractedText> {
    const deadline = new Deadline(this.limits.timeBudgetMs);
    try {
      return await this.extractWithin(input, deadline);
    } catch (error) {
      if (error instanceof CaptureRejected || error instanceof BackendUnavailableError) throw error;
      // A parser that throws something unexpected has met a file it cannot read.
      throw new CaptureRejected('extraction_failed', 'the file could not be read as its type');
    } finally {
      deadline.dispose();
    }
  }

  private async extractWithin(input: ExtractionInput, deadline: Deadline): Promise<ExtractedText> {
    const sniffed = await sniff(input.bytes);
    switch (sniffed.family) {
      case 'pdf':
        return this.pdf(input.bytes, deadline);
      case 'docx':
        return { text: await extractDocx(input.bytes, this.limits, deadline), kind: 'file', contentType: sniffed.contentType, pageCount: null, ocrPages: 0 };
      case 'image':
        return this.image(input.bytes, sniffed.contentType, deadline);
      case 'text': {
        const { text, contentType } = extractTextFile(input.bytes, input.declaredContentType, input.filename);
        return { text, kind: 'file', contentType, pageCount: null, ocrPages: 0 };
      }
    }
  }

  /** Text layer page by page; pages that draw something but carry no text are rendered and OCRed. */
  private async pdf(bytes: Uint8Array, deadline: Deadline): Promise<ExtractedText> {
    const pdf = await PdfFile.open(bytes, this.limits, deadline);
    try {
      if (pdf.pageCount > this.limits.maxPdfPages) {
        throw new CaptureRejected('too_large', `the PDF has ${pdf.pageCount} pages; at most ${this.limits.maxPdfPages}`);
      }
      const pages = await pdf.textLayer(deadline);
      const scanned = pages.filter((page) => page.needsOcr);
      this.checkOcrPages(scanned.length);
      for (const page of scanned) {
        const image = await pdf.renderForOcr(page.pageNumber, deadline);
        page.text = await this.recognize(image, deadline);
      }
      return {
        text: joinPages(pages.map((page) => page.text)),
        kind: 'file',
        contentType: 'application/pdf',
        pageCount: pdf.pageCount,
        ocrPages: scanned.length,
      };
    } finally {
      await pdf.close();
    }
  }

  /** A photo or scan: every page OCRed (TIFF pages), found by search as kind `image`. */
  private async image(bytes: Uint8Array, contentType: string, deadline: Deadline): Promise<ExtractedText> {
    const pageCount = await imagePageCount(bytes, contentType, this.limits);
    this.checkOcrPages(pageCount);
    const texts: string[] = [];
    for (let page = 0; page < pageCount; page += 1) {
      texts.push(await this.recognize(await imagePageForOcr(bytes, page, this.limits, deadline), deadline));
    }
    return { text: joinPages(texts), kind: 'image', contentType, pageCount: contentType === 'image/tiff' ? pageCount : null, ocrPages: pageCount };
  }

  private checkOcrPages(count: number): void {
    if (count > this.limits.maxOcrPages) {
      throw new CaptureRejected('too_large', `the file needs OCR on ${count} pages; at most ${this.limits.maxOcrPages} per file`);
    }
  }

  private async recognize(image: Parameters<OcrEngine['recognize']>[0], deadline: Deadline): Promise<string> {
    const result = await deadline.race(this.ocr.recognize(image, { signal: deadline.signal }));
    return tidyLines(result.text);
  }
}
