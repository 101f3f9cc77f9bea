import type { BatchEntry, CaptureItem, CaptureReceipt, CaptureService } from '../core/capture.js';
import { rejectedReceipt } from '../core/capture.js';
import { DomainError } from '../core/errors.js';
import { checkMetadata, type Metadata } from '../core/metadata.js';
import { describeIssue } from './endpoint.js';
import { libraryOf } from './library.js';
import { type CaptureOutcome, noteCapture } from './observability.js';
import { CaptureItem as CaptureItemSchema } from './schemas.js';

/** HTTP status of a receipt (API.md: 201 created, 200 deduped, 422 or 503 rejected). */
export function receiptStatus(receipt: CaptureReceipt): number {
  if (receipt.status === 'created') return 201;
  if (receipt.status === 'deduped') return 200;
  return receipt.retryable ? 503 : 422;
}

/** Told of every receipt a capture endpoint gives (the AWS wiring counts them as metrics). */
export type ReceiptListener = (receipt: CaptureOutcome) => void;

/** How a capture endpoint asks for its items (see captureRawItem). */
interface RawCaptureOptions {
  defaultEndUserId?: string;
  interactive: boolean;
  deadline?: number;
  onReceipt?: ReceiptListener;
}

/**
 * Validates one raw item against the CaptureItem schema and captures it. A
 * shape problem is a rejected receipt (invalid_item, missing_content, ...),
 * never an exception: the other items of a batch go on. Every receipt, a
 * shape rejection too, is counted on the request's access line and told to
 * `onReceipt`.
 */
export async function captureRawItem(
  capture: CaptureService,
  tenantId: string,
  raw: unknown,
  options: RawCaptureOptions,
): Promise<CaptureReceipt> {
  const entry = parseRawItem(tenantId, raw, options.defaultEndUserId);
  const receipt =
    'receipt' in entry
      ? entry.receipt
      : await capture.capture(entry.ref, entry.item, { interactive: options.interactive, deadline: options.deadline });
  return noted(receipt, options.onReceipt);
}

/** A batch's raw items, each validated and captured as captureRawItem does, receipts in order (CaptureService.captureBatch). */
export async function captureRawItems(
  capture: CaptureService,
  tenantId: string,
  raws: readonly unknown[],
  options: Omit<RawCaptureOptions, 'interactive'>,
): Promise<CaptureReceipt[]> {
  const entries = raws.map((raw) => parseRawItem(tenantId, raw, options.defaultEndUserId));
  const receipts = await capture.captureBatch(entries, { interactive: false, deadline: options.deadline });
  return receipts.map((receipt) => noted(receipt, options.onReceipt));
}

function noted(receipt: CaptureReceipt, onReceipt: ReceiptListener | undefined): CaptureReceipt {
  noteCapture(receipt);
  try {
    onReceipt?.(receipt);
  } catch {
    // A failing counter must not fail the capture it counts.
  }
  return receipt;
}

/** One raw item as the capture service takes it, or the rejected receipt its shape earns. */
function parseRawItem(tenantId: string, raw: unknown, defaultEndUserId: string | undefined): BatchEntry {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { receipt: rejectedReceipt('invalid_item', 'item: must be a JSON object') };
  }
  // Metadata has rules of its own, checked first so a rejection names the key (API.md, "Metadata").
  let metadata: Metadata | undefined;
  if ('metadata' in raw && (raw as { metadata?: unknown }).metadata !== undefined) {
    try {
      metadata = checkMetadata((raw as { metadata: unknown }).metadata);
    } catch (error) {
      if (error instanceof DomainError) return { receipt: rejectedReceipt('invalid_request', error.message) };
      throw error;
    }
  }
  const parsed = CaptureItemSchema.safeParse(raw);
  if (!parsed.success) return { receipt: rejectedReceipt('invalid_item', describeIssue(parsed.error)) };
  const { text, content_base64, filename, content_type, title, source_ref, replace_source_ref, end_user_id } =
    parsed.data;
  const item: CaptureItem = {
    text,
    contentBase64: content_base64,
    filename,
    contentType: content_type,
    title,
    sourceRef: source_ref,
    replaceSourceRef: replace_source_ref,
    metadata,
  };
  return { ref: libraryOf(tenantId, end_user_id ?? defaultEndUserId), item };
}
