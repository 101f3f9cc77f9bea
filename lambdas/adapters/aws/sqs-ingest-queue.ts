import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { LibraryRef } from '../../core/model.js';
import type { IngestJob, IngestQueue } from '../../core/ports.js';
import { callAws } from './errors.js';

/**
 * Opaque, erasable names for end users' libraries (the DynamoDB document
 * store implements them): what a job body carries instead of an end user id.
 */
export interface LibraryReferences {
  /** A reference to the library's generation `generation`; it resolves to nothing once that library is erased. */
  libraryReference(ref: LibraryRef, generation: string): Promise<string>;
  /** The library a reference names while its generation lives, else null. */
  resolveLibraryReference(tenantId: string, reference: string): Promise<LibraryRef | null>;
  /** The library's live generation (for a job that came without the one it was claimed in). */
  libraryGeneration(ref: LibraryRef, options?: { readOnly?: boolean }): Promise<string | null>;
}

/**
 * A job as its SQS message carries it. The current form names an end user's
 * library only by an opaque reference (`library`; null for the tenant's
 * shared library, which names nobody):
 * `{"v":2,"tenantId":"ten_…","documentId":"file_…","library":"<reference>"|null}`.
 * SQS keeps a body for days (the dead-letter queue 14) whatever an erasure
 * does, so the body must not name the end user; once the library is erased
 * its reference resolves to nothing. Messages sent before this form
 * (`{tenantId, endUserId, documentId}`) are still read, so jobs in flight
 * across a deploy are done.
 */
export type IngestMessage =
  | { v: 2; tenantId: string; documentId: string; library: string | null }
  | { v: 1; tenantId: string; documentId: string; endUserId: string | null };

/** How long a reference this environment wrote is taken to exist without writing it again (its time to live is 15 days). */
const REFERENCE_REUSE_MS = 60 * 60 * 1000;

/**
 * The ingest queue on SQS: one message per job (IngestMessage). Always idle
 * as far as a capture can tell: each Lambda makes its own embedder calls, so
 * a small single capture never waits behind the queue's work and is embedded
 * in its own request; the queue takes the big work (batches, large texts,
 * files to extract). No `settled`: the worker runs in another function.
 */
export class SqsIngestQueue implements IngestQueue {
  /** References written lately by this environment (tenant, generation → when), so a batch writes one. */
  private readonly written = new Map<string, number>();

  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
    private readonly references: LibraryReferences,
    private readonly now: () => number = Date.now,
  ) {}

  isIdle(): boolean {
    return true;
  }

  async enqueue(job: IngestJob): Promise<void> {
    const message: IngestMessage = {
      v: 2,
      tenantId: job.tenantId,
      documentId: job.documentId,
      library: await this.referenceOf(job),
    };
    await callAws('ingest.enqueue', () =>
      this.client.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(message) })),
    );
  }

  private async referenceOf(job: IngestJob): Promise<string | null> {
    if (job.endUserId === null) return null;
    const ref = { tenantId: job.tenantId, endUserId: job.endUserId };
    const generation = job.generation ?? (await this.references.libraryGeneration(ref));
    // Erased already: the job finds no document; its body names nobody.
    if (!generation) return '';
    const cacheKey = `${job.tenantId}\u0000${generation}`;
    const at = this.written.get(cacheKey);
    if (at !== undefined && this.now() - at < REFERENCE_REUSE_MS) return generation;
    const reference = await this.references.libraryReference(ref, generation);
    this.written.set(cacheKey, this.now());
    return reference;
  }
}

/** Reads a job message back from its body (either form); null when the body is not one. */
export function parseIngestMessage(body: string): IngestMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const m = value as Record<string, unknown>;
  if (typeof m.tenantId !== 'string' || !m.tenantId || typeof m.documentId !== 'string' || !m.documentId) return null;
  if (m.v === 2) {
    if (m.library !== null && typeof m.library !== 'string') return null;
    return { v: 2, tenantId: m.tenantId, documentId: m.documentId, library: m.library };
  }
  if (m.v !== undefined) return null;
  if (m.endUserId !== null && typeof m.endUserId !== 'string') return null;
  return { v: 1, tenantId: m.tenantId, documentId: m.documentId, endUserId: m.endUserId };
}

/**
 * The job a message stands for: its library resolved from the reference
 * (null when that library was erased: the job has nothing left to do), or,
 * for a message of the earlier form, as it came.
 */
export async function resolveIngestMessage(
  message: IngestMessage,
  references: Pick<LibraryReferences, 'resolveLibraryReference'>,
): Promise<IngestJob | null> {
  if (message.v === 1)
    return { tenantId: message.tenantId, endUserId: message.endUserId, documentId: message.documentId };
  if (message.library === null) return { tenantId: message.tenantId, endUserId: null, documentId: message.documentId };
  const ref = message.library ? await references.resolveLibraryReference(message.tenantId, message.library) : null;
  if (!ref) return null;
  return {
    tenantId: ref.tenantId,
    endUserId: ref.endUserId,
    documentId: message.documentId,
    generation: message.library,
  };
}
