/**
 * The loop of a file reader thread (full-thread.ts, text-thread.ts): reads
 * the bytes it is sent, so a parser stuck on a hostile file (a backtracking
 * pattern, a decompression bomb, a deep structure) blocks this thread alone,
 * which its supervisor (reader-pool.ts) can stop. OCR is not done here: page
 * images go back to the supervisor, whose engine (a tesseract.js pool,
 * Textract) every reader shares.
 */
import os from 'node:os';
import v8 from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import type { ExtractedText, ExtractionInput } from '../../../core/ports.js';
import type { OcrEngine, OcrImage, OcrResult, PdfOcr } from '../ocr-ports.js';
import { asReadFailure } from '../read-failure.js';
import { type FromReader, fromWire, type ReaderThreadData, type ToReader, toWire, type WireError } from './protocol.js';
import { currentThreadId } from './thread-usage.js';

/** What a reader thread reads with. */
export interface ThreadReader {
  isSlowWork(bytes: Uint8Array): Promise<boolean>;
  extract(input: ExtractionInput): Promise<ExtractedText>;
}

const port = parentPort!;
/** The supervisor's settings for this thread. */
export const threadData = workerData as ReaderThreadData;
const data = threadData;
const send = (message: FromReader, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer ?? []);

try {
  os.setPriority(0, data.nice); // this thread only, on Linux
} catch {
  // Not allowed here: normal priority.
}

/** OCR calls waiting for the supervisor's answer. */
const ocrCalls = new Map<
  number,
  { resolve: (reply: { result?: OcrResult; pages?: string[] }) => void; reject: (error: Error) => void }
>();
let nextCall = 0;

function askSupervisor(
  message: FromReader,
  transfer: ArrayBuffer[],
  call: number,
  signal?: AbortSignal,
): Promise<{ result?: OcrResult; pages?: string[] }> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      ocrCalls.delete(call);
      send({ type: 'ocr-cancel', call });
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    ocrCalls.set(call, {
      resolve: (reply) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(reply);
      },
      reject: (error) => {
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      },
    });
    send(message, transfer);
  });
}

/** OCR through the supervisor. */
export const supervisorOcr: OcrEngine = {
  name: 'supervisor',
  async recognize(image: OcrImage, options?: { signal?: AbortSignal }): Promise<OcrResult> {
    const call = nextCall++;
    const png = new Uint8Array(image.png);
    const reply = await askSupervisor(
      { type: 'ocr', call, image: { ...image, png } },
      [png.buffer as ArrayBuffer],
      call,
      options?.signal,
    );
    return reply.result!;
  },
};

/** Whole-PDF OCR through the supervisor (offered when threadData.pdfOcr). */
export const supervisorPdfOcr: PdfOcr = {
  async readPdf(pdf: Uint8Array, options?: { signal?: AbortSignal }): Promise<{ pages: string[] }> {
    const call = nextCall++;
    const copy = new Uint8Array(pdf);
    const reply = await askSupervisor(
      { type: 'pdf-ocr', call, pdf: copy },
      [copy.buffer as ArrayBuffer],
      call,
      options?.signal,
    );
    return { pages: reply.pages ?? [] };
  },
};

/** This thread's heap and the buffers it holds (V8 keeps what a big read grew it to). */
function heapBytes(): number {
  const heap = v8.getHeapStatistics();
  return heap.total_heap_size + heap.external_memory;
}

/** Serves the supervisor's reads with `reader` until the thread is stopped. */
export function serveReads(reader: ThreadReader): void {
  const read = (message: Extract<ToReader, { type: 'read' }>): Promise<ExtractedText | boolean> =>
    message.op === 'slow-work'
      ? reader.isSlowWork(message.bytes)
      : reader.extract({
          bytes: message.bytes,
          declaredContentType: message.declaredContentType,
          filename: message.filename,
        });
  port.on('message', (message: ToReader) => {
    if (message.type === 'ocr-reply') {
      const call = ocrCalls.get(message.call);
      if (!call) return;
      ocrCalls.delete(message.call);
      if (message.error) call.reject(fromWire(message.error as WireError));
      else call.resolve({ result: message.result, pages: message.pages });
      return;
    }
    read(message).then(
      (value) => send({ type: 'done', id: message.id, value, heapBytes: heapBytes() }),
      // Whatever a reader throws reaches the supervisor as a contract error (a parser's own errors are not).
      (error: unknown) =>
        send({ type: 'done', id: message.id, error: toWire(asReadFailure(error)), heapBytes: heapBytes() }),
    );
  });
  send({ type: 'ready', threadId: currentThreadId() });
}
