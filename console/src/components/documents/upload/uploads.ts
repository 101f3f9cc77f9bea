import { useSyncExternalStore } from 'react';
import {
  type BatchReceipt,
  type CaptureInput,
  contentTypeFor,
  type Document,
  type Library,
  LibraryError,
} from '../../../../../client/src/index.js';
import { describeError } from '../../ErrorNotice';
import { MAX_FILE_BYTES, nextBatch, readBase64, relativePath } from './batches';

/** Where one file stands: waiting, on its way, then the receipt the API gave it. */
export type Stage = 'queued' | 'sending' | 'created' | 'deduped' | 'rejected';

export interface UploadEntry {
  key: number;
  name: string;
  /** Its path in what was dropped (a folder's files keep theirs): sent as source_ref. */
  path: string;
  size: number;
  stage: Stage;
  /** The document, once created or deduped. */
  id: string | null;
  /** The receipt's detail; for a rejected file, `reject_code: detail`. */
  detail: string | null;
  /** The document's status after the receipt, read until it is ready or failed. */
  status: Document['status'] | 'deleted' | null;
  failureReason: string | null;
  passages: number | null;
  embedded: number;
  /** The end user whose library it went to (the one chosen when it was sent). */
  endUser: string | undefined;
}

interface Snapshot {
  entries: UploadEntry[];
  error: unknown;
}

/** How often documents still processing are read; at most POLL_COUNT a round, so a big upload stays under the rate limit. */
const POLL_MS = 1500;
const POLL_COUNT = 8;

/**
 * The uploads of one signed-in client: files are sent in batches (one batch
 * at a time), each file's receipt recorded, then every created or deduped
 * document read again until it is ready or failed. It lives beside the
 * client, not in the page, so leaving the Upload page and coming back finds
 * the uploads still going.
 */
export class UploadQueue {
  private snapshot: Snapshot = { entries: [], error: null };
  private readonly listeners = new Set<() => void>();
  private pending: { key: number; file: File; name: string; path: string; size: number }[] = [];
  private sending = false;
  private poller: ReturnType<typeof setInterval> | null = null;
  private readonly lastRead = new Map<number, number>();
  private nextKey = 1;

  constructor(private readonly library: Library) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  /** Queues files for the library of `endUser` (undefined: the shared library) and starts sending. */
  add(files: File[], endUser: string | undefined): void {
    const fresh = files.map((file): UploadEntry => {
      const entry: UploadEntry = {
        key: this.nextKey++,
        name: file.name,
        path: relativePath(file),
        size: file.size,
        stage: 'queued',
        id: null,
        detail: null,
        status: null,
        failureReason: null,
        passages: null,
        embedded: 0,
        endUser,
      };
      // Not sent: the service takes at most 4 MiB a file, and a larger one would only make the batch's body too large.
      if (file.size > MAX_FILE_BYTES)
        return { ...entry, stage: 'rejected', detail: 'too_large: over 4 MiB, the most one file may be' };
      this.pending.push({ key: entry.key, file, name: entry.name, path: entry.path, size: file.size });
      return entry;
    });
    this.set({ entries: [...this.snapshot.entries, ...fresh] });
    void this.send();
  }

  /** Forgets the files that are done (sent, whatever their receipt); those still on their way stay. */
  clear(): void {
    this.set({
      entries: this.snapshot.entries.filter((entry) => entry.stage === 'queued' || entry.stage === 'sending'),
      error: null,
    });
  }

  dismissError(): void {
    this.set({ error: null });
  }

  private set(patch: Partial<Snapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    const unsettled = this.snapshot.entries.some((entry) => entry.id && entry.status === 'processing');
    if (unsettled && !this.poller) this.poller = setInterval(() => this.poll(), POLL_MS);
    if (!unsettled && this.poller) {
      clearInterval(this.poller);
      this.poller = null;
    }
    for (const listener of this.listeners) listener();
  }

  private update(key: number, patch: Partial<UploadEntry>): void {
    this.set({ entries: this.snapshot.entries.map((entry) => (entry.key === key ? { ...entry, ...patch } : entry)) });
  }

  private async send(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.pending.length) {
        const batch = nextBatch(this.pending);
        this.pending = this.pending.slice(batch.length);
        for (const item of batch) this.update(item.key, { stage: 'sending' });
        const owners = new Map(this.snapshot.entries.map((entry) => [entry.key, entry.endUser]));
        try {
          const items = await Promise.all(batch.map((item) => toItem(item.file, item.path, owners.get(item.key))));
          const answer = await this.library.captureBatch(items);
          for (const receipt of answer.results) {
            const item = batch[receipt.index];
            if (item) this.update(item.key, fromReceipt(receipt));
          }
        } catch (caught) {
          // The whole batch failed (the service unreachable, a body refused): each file says so, the notice says why.
          const { title, message } = describeError(caught);
          this.set({ error: caught });
          for (const item of batch) this.update(item.key, { stage: 'rejected', detail: `${title}: ${message}` });
        }
      }
    } finally {
      this.sending = false;
    }
  }

  /** Reads a few unsettled documents, those read longest ago first. */
  private poll(): void {
    const due = this.snapshot.entries
      .filter((entry) => entry.id && entry.status === 'processing')
      .sort((a, b) => (this.lastRead.get(a.key) ?? 0) - (this.lastRead.get(b.key) ?? 0))
      .slice(0, POLL_COUNT);
    for (const entry of due) {
      this.lastRead.set(entry.key, Date.now());
      this.library.documents
        .get(entry.id!, entry.endUser ? { end_user_id: entry.endUser } : {})
        .then((doc) =>
          this.update(entry.key, {
            status: doc.status,
            failureReason: doc.failure_reason,
            passages: doc.passages,
            embedded: doc.passages_embedded,
          }),
        )
        .catch((caught) => {
          // Deleted meanwhile: nothing to wait for. Anything else: read again next round.
          if (caught instanceof LibraryError && caught.status === 404) this.update(entry.key, { status: 'deleted' });
        });
    }
  }
}

async function toItem(file: File, path: string, endUser: string | undefined): Promise<CaptureInput> {
  return {
    filename: file.name,
    content_type: file.type || contentTypeFor(file.name, new Uint8Array()),
    content_base64: await readBase64(file),
    source_ref: path,
    ...(endUser ? { end_user_id: endUser } : {}),
  };
}

function fromReceipt(receipt: BatchReceipt): Partial<UploadEntry> {
  if (receipt.status === 'rejected')
    return { stage: 'rejected', detail: `${receipt.reject_code}: ${receipt.detail}`, id: null };
  return { stage: receipt.status, detail: receipt.detail, id: receipt.id, status: 'processing' };
}

/** One queue per signed-in client (a new key, a new client: a new queue). */
const queues = new WeakMap<Library, UploadQueue>();

/** The uploads of this client, re-rendering as they move. */
export function useUploads(library: Library) {
  let queue = queues.get(library);
  if (!queue) {
    queue = new UploadQueue(library);
    queues.set(library, queue);
  }
  const snapshot = useSyncExternalStore(queue.subscribe, queue.getSnapshot);
  return { ...snapshot, queue };
}
