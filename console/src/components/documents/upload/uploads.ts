import { useSyncExternalStore } from 'react';
import {
  type BatchReceipt,
  type CaptureInput,
  contentTypeFor,
  type Document,
  type Library,
  LibraryAbortError,
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
  /**
   * The document's status after the receipt, read until it is ready or failed;
   * `unknown` once reading it failed too often (`statusError` says why).
   */
  status: Document['status'] | 'deleted' | 'unknown' | null;
  /** Why the status is unknown: the last error reading it. */
  statusError: string | null;
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

/** A round of status reads at most this often, each after the last one has settled. */
const POLL_MS = 1500;
/** At most this many reads a round, so a big upload stays under the rate limit. */
const POLL_COUNT = 8;
/** After a failed read, an entry waits POLL_MS doubled at each failure in a row, up to this long... */
const MAX_BACKOFF_MS = 30_000;
/** ...and after this many failures in a row its status is given up as unknown. */
const MAX_FAILURES = 4;

/** How the reads of one entry's status are going. */
interface PollState {
  lastRead: number;
  failures: number;
  /** Not read again before this time (the backoff after a failure). */
  notBefore: number;
}

const isUnsettled = (entry: UploadEntry) => Boolean(entry.id) && entry.status === 'processing';

/**
 * The uploads of one signed-in client: files are sent in batches (one batch
 * at a time), each file's receipt recorded, then every created or deduped
 * document read again until it is ready or failed. It lives beside the
 * client, not in the page, so leaving the Upload page and coming back finds
 * the uploads still going; `stopUploads` ends it when the person signs out.
 */
export class UploadQueue {
  private snapshot: Snapshot = { entries: [], error: null };
  private readonly listeners = new Set<() => void>();
  private pending: { key: number; file: File; name: string; path: string; size: number }[] = [];
  private sending = false;
  /** The next round of status reads, when one is waiting. */
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** A round of status reads is going (the next one is scheduled once it settles). */
  private polling = false;
  /** The entries whose status is being read now. */
  private readonly inFlight = new Set<number>();
  private readonly polls = new Map<number, PollState>();
  /** Cancels every request the queue has going (sign-out). */
  private readonly controller = new AbortController();
  private nextKey = 1;

  constructor(private readonly library: Library) {}

  get disposed(): boolean {
    return this.controller.signal.aborted;
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = () => this.snapshot;

  /** Queues files for the library of `endUser` (undefined: the shared library) and starts sending. */
  add(files: File[], endUser: string | undefined): void {
    if (this.disposed) return;
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
        statusError: null,
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

  /**
   * Forgets the files of `endUser`'s library that are done (sent, whatever
   * their receipt); those still on their way, and other libraries' files, stay.
   */
  clear(endUser: string | undefined): void {
    this.set({
      entries: this.snapshot.entries.filter(
        (entry) => entry.endUser !== endUser || entry.stage === 'queued' || entry.stage === 'sending',
      ),
      error: null,
    });
  }

  dismissError(): void {
    this.set({ error: null });
  }

  /**
   * Stops for good: no round of reads is scheduled again, the requests going
   * are aborted, the files not yet sent are dropped and the list is emptied.
   */
  dispose(): void {
    if (this.disposed) return;
    this.controller.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = [];
    this.inFlight.clear();
    this.polls.clear();
    this.snapshot = { entries: [], error: null };
    for (const listener of this.listeners) listener();
    this.listeners.clear();
  }

  private set(patch: Partial<Snapshot>): void {
    if (this.disposed) return;
    this.snapshot = { ...this.snapshot, ...patch };
    this.schedule();
    for (const listener of this.listeners) listener();
  }

  private update(key: number, patch: Partial<UploadEntry>): void {
    this.set({ entries: this.snapshot.entries.map((entry) => (entry.key === key ? { ...entry, ...patch } : entry)) });
  }

  private async send(): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      while (this.pending.length && !this.disposed) {
        const batch = nextBatch(this.pending);
        this.pending = this.pending.slice(batch.length);
        for (const item of batch) this.update(item.key, { stage: 'sending' });
        const owners = new Map(this.snapshot.entries.map((entry) => [entry.key, entry.endUser]));
        try {
          const items = await Promise.all(batch.map((item) => toItem(item.file, item.path, owners.get(item.key))));
          if (this.disposed) return;
          const answer = await this.library.captureBatch(items, { signal: this.controller.signal });
          for (const receipt of answer.results) {
            const item = batch[receipt.index];
            if (item) this.update(item.key, fromReceipt(receipt));
          }
        } catch (caught) {
          if (this.disposed) return;
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

  /**
   * Schedules the next round of reads, unless one is waiting or going (a
   * round schedules the next once it has settled) or nothing is processing.
   * Forgets the poll state of the entries that are no longer.
   */
  private schedule(): void {
    if (this.disposed || this.polling) return;
    const unsettled = this.snapshot.entries.filter(isUnsettled);
    const keep = new Set(unsettled.map((entry) => entry.key));
    for (const key of this.polls.keys()) if (!keep.has(key)) this.polls.delete(key);
    if (!unsettled.length) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      return;
    }
    if (this.timer) return;
    // The soonest any entry may be read again, and not before POLL_MS.
    const soonest = Math.min(...unsettled.map((entry) => this.polls.get(entry.key)?.notBefore ?? 0));
    const delay = Math.max(POLL_MS, soonest - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.poll();
    }, delay);
  }

  /** Reads a few unsettled documents, those read longest ago first; schedules the next round once all have answered. */
  private async poll(): Promise<void> {
    if (this.disposed || this.polling) return;
    this.polling = true;
    const now = Date.now();
    const due = this.snapshot.entries
      .filter(
        (entry) =>
          isUnsettled(entry) && !this.inFlight.has(entry.key) && (this.polls.get(entry.key)?.notBefore ?? 0) <= now,
      )
      .sort((a, b) => (this.polls.get(a.key)?.lastRead ?? 0) - (this.polls.get(b.key)?.lastRead ?? 0))
      .slice(0, POLL_COUNT);
    try {
      await Promise.all(due.map((entry) => this.read(entry)));
    } finally {
      this.polling = false;
      this.schedule();
    }
  }

  /** Reads one document's status; a failure backs off, and too many in a row give it up as unknown. */
  private async read(entry: UploadEntry): Promise<void> {
    const state = this.polls.get(entry.key) ?? { lastRead: 0, failures: 0, notBefore: 0 };
    state.lastRead = Date.now();
    this.polls.set(entry.key, state);
    this.inFlight.add(entry.key);
    try {
      const doc = await this.library.documents.get(entry.id!, entry.endUser ? { end_user_id: entry.endUser } : {}, {
        signal: this.controller.signal,
      });
      state.failures = 0;
      state.notBefore = 0;
      this.update(entry.key, {
        status: doc.status,
        statusError: null,
        failureReason: doc.failure_reason,
        passages: doc.passages,
        embedded: doc.passages_embedded,
      });
    } catch (caught) {
      if (this.disposed || caught instanceof LibraryAbortError) return;
      // Deleted meanwhile: nothing to wait for.
      if (caught instanceof LibraryError && caught.status === 404) {
        this.update(entry.key, { status: 'deleted', statusError: null });
        return;
      }
      // A refusal that asking again will not change (the key no longer valid, say): given up at once.
      const final =
        caught instanceof LibraryError &&
        caught.status >= 400 &&
        caught.status < 500 &&
        caught.status !== 408 &&
        caught.status !== 429;
      state.failures += 1;
      state.notBefore = Date.now() + Math.min(POLL_MS * 2 ** state.failures, MAX_BACKOFF_MS);
      if (final || state.failures >= MAX_FAILURES) {
        const { title, message } = describeError(caught);
        this.update(entry.key, { status: 'unknown', statusError: `${title}: ${message}` });
      }
    } finally {
      this.inFlight.delete(entry.key);
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

/**
 * Ends the uploads of this client: call it when the person signs out (or the
 * key changes). Its status reads stop and its requests in flight are aborted,
 * so nothing is sent with the forgotten key; the list is dropped.
 */
export function stopUploads(library: Library): void {
  queues.get(library)?.dispose();
  queues.delete(library);
}

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
