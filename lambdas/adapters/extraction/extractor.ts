import { CaptureRejected } from '../../core/errors.js';
import type { ExtractedText, ExtractionInput, TextExtractor } from '../../core/ports.js';
import { Deadline } from './deadline.js';
import { extractDocx } from './docx.js';
import { imagePageCount, imagePageForOcr } from './images.js';
import { DEFAULT_EXTRACTION_LIMITS, type ExtractionLimits } from './limits.js';
import { tidyLines } from './normalize.js';
import type { OcrEngine, OcrImage, PdfOcr } from './ocr-ports.js';
import { joinPages, PdfFile } from './pdf.js';
import { asReadFailure } from './read-failure.js';
import { isSlowWork } from './slow-work.js';
import { sniff } from './sniff.js';
import { extractTextFile } from './text-formats.js';

export interface FileExtractorOptions {
  ocr: OcrEngine;
  /** Reads PDFs with several scanned pages in one job instead of page by page (Textract's asynchronous API on AWS). */
  pdfOcr?: PdfOcr;
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
  private readonly pdfOcr: PdfOcr | undefined;

  constructor(options: FileExtractorOptions) {
    this.ocr = options.ocr;
    this.pdfOcr = options.pdfOcr;
    this.limits = { ...DEFAULT_EXTRACTION_LIMITS, ...options.limits };
  }

  isSlowWork(bytes: Uint8Array): Promise<boolean> {
    return isSlowWork(bytes, this.limits.inlineMaxBytes);
  }

  async extract(input: ExtractionInput): Promise<ExtractedText> {
    const deadline = new Deadline(this.limits.timeBudgetMs);
    try {
      return await this.extractWithin(input, deadline);
    } catch (error) {
      throw asReadFailure(error);
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
        return {
          text: await extractDocx(input.bytes, this.limits, deadline),
          kind: 'file',
          contentType: sniffed.contentType,
          pageCount: null,
          ocrPages: 0,
        };
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
        throw new CaptureRejected(
          'too_large',
          `the PDF has ${pdf.pageCount} pages; at most ${this.limits.maxPdfPages}`,
        );
      }
      const pages = await pdf.textLayer(deadline);
      const scanned = pages.filter((page) => page.needsOcr);
      this.checkOcrPages(scanned.length);
      let ocrPages = scanned.length;
      if (this.pdfOcr && scanned.length > 1) {
        // The whole document is read (and billed) in one job.
        const { pages: read } = await deadline.race(this.pdfOcr.readPdf(bytes, { signal: deadline.signal }));
        for (const page of scanned) page.text = tidyLines(read[page.pageNumber - 1] ?? '');
        ocrPages = pdf.pageCount;
      } else {
        const texts = await this.recognizePages(
          scanned.length,
          (i) => pdf.renderForOcr(scanned[i]!.pageNumber, deadline),
          deadline,
        );
        scanned.forEach((page, i) => (page.text = texts[i]!));
      }
      return {
        text: joinPages(pages.map((page) => page.text)),
        kind: 'file',
        contentType: 'application/pdf',
        pageCount: pdf.pageCount,
        ocrPages,
      };
    } finally {
      await pdf.close();
    }
  }

  /** A photo or scan: every page OCRed (TIFF pages), found by search as kind `image`. */
  private async image(bytes: Uint8Array, contentType: string, deadline: Deadline): Promise<ExtractedText> {
    const pageCount = await imagePageCount(bytes, contentType, this.limits);
    this.checkOcrPages(pageCount);
    const texts = await this.recognizePages(
      pageCount,
      (page) => imagePageForOcr(bytes, page, this.limits, deadline),
      deadline,
    );
    return {
      text: joinPages(texts),
      kind: 'image',
      contentType,
      pageCount: contentType === 'image/tiff' ? pageCount : null,
      ocrPages: pageCount,
    };
  }

  private checkOcrPages(count: number): void {
    if (count > this.limits.maxOcrPages) {
      throw new CaptureRejected(
        'too_large',
        `the file needs OCR on ${count} pages; at most ${this.limits.maxOcrPages} per file`,
      );
    }
  }

  /**
   * Prepares page images one after another (rendering runs here) while the
   * OCR engine reads the ones already handed over, in parallel as far as its
   * pool allows. The first failure cancels pages still waiting.
   */
  private async recognizePages(
    count: number,
    prepare: (index: number) => Promise<OcrImage>,
    deadline: Deadline,
  ): Promise<string[]> {
    const stop = new AbortController();
    const signal = AbortSignal.any([deadline.signal, stop.signal]);
    const pending: Promise<string>[] = [];
    try {
      for (let index = 0; index < count; index += 1) {
        const image = await prepare(index);
        const text = deadline.race(this.ocr.recognize(image, { signal })).then((result) => tidyLines(result.text));
        text.catch(() => stop.abort());
        pending.push(text);
      }
      return await Promise.all(pending);
    } catch (error) {
      stop.abort();
      await Promise.allSettled(pending);
      throw error;
    }
  }
}
