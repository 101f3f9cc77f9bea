import type { OcrEngine, OcrImage, OcrResult } from '../../lambdas/adapters/extraction/ocr-ports.js';

/** Records what the pipeline asked to read and answers with fixed text (unit tests; real OCR is tested on its own). */
export class RecordingOcr implements OcrEngine {
  readonly name = 'recording';
  readonly images: OcrImage[] = [];
  constructor(
    private readonly answer = 'recognized words',
    private readonly delayMs = 0,
  ) {}
  async recognize(image: OcrImage): Promise<OcrResult> {
    this.images.push(image);
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    return { text: this.answer, confidence: 0.9 };
  }
}
