import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import cliProgress from 'cli-progress';
import { Command, InvalidArgumentError } from 'commander';
import {
  type CaptureInput,
  type Document,
  Library,
  LibraryError,
  type Metadata,
  type MetadataPatch,
  type RetryInfo,
} from '../client/src/node.js';
import { LIMITS } from '../lambdas/core/limits.js';
import { parseOrExit } from './command-line.js';
import { metadataPatch, parseMetadataPair, sameMetadata, splitFile } from './front-matter.js';
import { IGNORE_FILE, PushIgnore } from './push-ignore.js';
import { declaredContentType, type PredictedRejection, predictRejection } from './push-preflight.js';
import { formatProgressLine, type ProgressCounts } from './push-progress.js';

/**
 * `library push FOLDER`: keeps a folder in step with a library through the
 * typed client. Every file under FOLDER (hidden ones skipped, and those the
 * `.libraryignore` files and `--exclude` patterns leave out: push-ignore.ts)
 * is a document whose source_ref is PREFIX + its relative path (with `/`).
 * An ignored file is out of push's sight: never read nor sent, and its
 * document, if an earlier run pushed it, is left alone (not pruned) unless
 * `--prune-ignored` asks for it. A file whose bytes match its document's
 * sha256 is not sent again; an edited file is
 * captured with `replace_source_ref`, so its older version goes; with
 * `--prune`, documents whose file is gone are deleted. Batches of up to 20
 * items go out `--concurrency` at a time; 429 and 503 are waited out by the
 * client's retries; a failed batch is reported and the run goes on.
 *
 * Metadata: each document's metadata is the `--metadata` pairs, with a
 * Markdown file's YAML front matter over them (bin/front-matter.ts). A file
 * with front matter is captured without it (its body, byte for byte), so an
 * edit of the front matter alone leaves the body's sha256 as stored: push
 * then PATCHes the document's metadata (keys gone from the front matter
 * removed) instead of capturing it again, and nothing is embedded again.
 * The same holds for a run whose `--metadata` differs from the last one:
 * push makes the metadata of every document it keeps exactly what this run
 * computes.
 *
 * `--dry-run` sends and deletes nothing, and predicts the rejects the
 * capture would answer with the service's own checks (push-preflight.ts),
 * so it exits as the real run would.
 */
export interface PushOptions {
  folder: string;
  url: string;
  apiKey: string;
  endUserId?: string;
  /** Prepended to every relative path to form the source_ref (namespaces a folder in a shared library). */
  prefix?: string;
  concurrency?: number;
  prune?: boolean;
  /** Delete the documents of files the ignore rules now leave out (left alone without it). */
  pruneIgnored?: boolean;
  /** gitignore-syntax patterns, relative to the folder, left out on top of its .libraryignore files. */
  exclude?: string[];
  dryRun?: boolean;
  /** Metadata for every pushed file (a Markdown file's front matter goes over it). */
  metadata?: Metadata;
  /** Client settings (tests shorten them). */
  retries?: number;
  timeoutMs?: number;
  retryBaseMs?: number;
  fetch?: typeof globalThis.fetch;
}

/** `metadata`: the document holds the file's text already; only its metadata differs (a PATCH). */
export type Action = 'new' | 'changed' | 'metadata' | 'unchanged' | 'too_large';

export interface PushEvent {
  path: string;
  outcome:
    | 'created'
    | 'replaced'
    | 'deduped'
    | 'metadata_updated'
    | 'unchanged'
    | 'rejected'
    | 'failed'
    | 'would_create'
    | 'would_replace'
    | 'would_update_metadata'
    | 'would_reject';
  detail?: string;
}

export interface PushSummary {
  url: string;
  folder: string;
  dry_run: boolean;
  files: number;
  created: number;
  /** Edited files captured as the new version of their document. */
  replaced: number;
  deduped: number;
  /** Files whose document already has their text but not their metadata: the metadata was (or, with --dry-run, would be) PATCHed, nothing captured. */
  metadata_updated: number;
  /** Files whose document already has their text and metadata: not sent. */
  unchanged: number;
  rejected: Array<{ path: string; code: string | null; detail: string }>;
  /** Files whose batch failed (connection, timeout, server error) after the client's retries. */
  failed: Array<{ path: string; error: string }>;
  /** Documents deleted (or, with --dry-run, to delete) because their file is gone (or, with --prune-ignored, ignored). */
  pruned: Array<{ source_ref: string; id: string }>;
  prune_failed: Array<{ source_ref: string; id: string; error: string }>;
  /** Files and folders the ignore rules left out (a folder counts once; what is in it is not looked at). */
  ignored: number;
  /** Documents of files the ignore rules leave out, pushed by an earlier run: left in the library (without --prune-ignored). */
  ignored_in_library: Array<{ source_ref: string; id: string }>;
  /** Front matter read only in part (keys left out) or not at all (not valid YAML); the file is still pushed. */
  warnings: Array<{ path: string; detail: string }>;
  /** Ids of the documents the receipts named (created, replaced or deduped), for --wait. */
  ids: string[];
  duration_ms: number;
}

export interface PushReporter {
  /** Called once the plan is known: how many files will be reported. */
  start?(total: number): void;
  /** One call per file. */
  file?(event: PushEvent): void;
  /** Retries the client makes (rate limited, unavailable). */
  retry?(info: RetryInfo): void;
  /** A free-form line (prune, notes). */
  line?(text: string): void;
}

const BATCH = LIMITS.batchItems;
/** Keep each request under the contract's body limit, with room for the JSON around the items. */
const MAX_BATCH_BODY = Math.floor(LIMITS.requestBodyBytes * 0.875);
/** Files larger than the contract's per-item limit are reported, not sent. */
const MAX_FILE_BYTES = LIMITS.fileBytes;

interface LocalFile {
  path: string;
  sourceRef: string;
  /** Of what is captured: the file, or its body after the front matter. */
  size: number;
  sha256?: string;
  action: Action;
  /** What the document's metadata should be: --metadata, then the front matter over it. */
  metadata: Metadata;
  /** For `metadata`: the PATCH each of the file's documents needs. */
  patches?: Array<{ id: string; patch: MetadataPatch }>;
  /** --dry-run, a file to send: the reject the capture would answer, if any. */
  predicted?: PredictedRejection;
}

/** What push captures of the file at `path`: its bytes, or the body after its front matter; and the metadata that goes with it. */
async function readLocal(path: string, base: Metadata) {
  const split = splitFile(path, await readFile(path));
  return { bytes: split.bytes, metadata: { ...base, ...split.metadata }, warnings: split.warnings };
}

/**
 * The files under `root` push considers, in a stable order, as paths
 * relative to it (with `/`). Each folder's ignore file is read before its
 * entries are judged; an ignored folder is not walked into (as in git, so a
 * large ignored tree such as node_modules costs nothing).
 */
async function* walk(
  root: string,
  rules: PushIgnore,
  onIgnored: (path: string) => void,
  dir = '',
): AsyncGenerator<string> {
  await rules.load(root, dir);
  const entries = await readdir(join(root, dir), { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue; // hidden files and folders (.git, .DS_Store, .libraryignore itself)
    const path = dir ? `${dir}/${entry.name}` : entry.name;
    const isDir = entry.isDirectory();
    if (!isDir && !entry.isFile()) continue;
    if (rules.ignores(path, isDir)) onIgnored(path);
    else if (isDir) yield* walk(root, rules, onIgnored, path);
    else yield path;
  }
}

/** A source_ref looks like one this command wrote (a relative path under the prefix), so --prune may consider it. */
function prunable(sourceRef: string, prefix: string): boolean {
  if (!sourceRef.startsWith(prefix)) return false;
  const rest = sourceRef.slice(prefix.length);
  return rest.length > 0 && !rest.startsWith('/') && !/^[a-z][a-z0-9+.-]*:/i.test(rest);
}

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(workers);
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function makeClient(
  options: Pick<PushOptions, 'url' | 'apiKey' | 'retries' | 'timeoutMs' | 'retryBaseMs' | 'fetch'>,
  onRetry?: (info: RetryInfo) => void,
): Library {
  return new Library({
    baseUrl: options.url,
    apiKey: options.apiKey,
    retries: options.retries ?? 6,
    timeoutMs: options.timeoutMs ?? 120_000,
    retryBaseMs: options.retryBaseMs,
    fetch: options.fetch,
    onRetry,
  });
}

export async function pushFolder(options: PushOptions, reporter: PushReporter = {}): Promise<PushSummary> {
  const started = Date.now();
  const prefix = options.prefix ?? '';
  const client = makeClient(options, reporter.retry);
  const summary: PushSummary = {
    url: client.baseUrl,
    folder: options.folder,
    dry_run: !!options.dryRun,
    files: 0,
    created: 0,
    replaced: 0,
    deduped: 0,
    metadata_updated: 0,
    unchanged: 0,
    rejected: [],
    failed: [],
    pruned: [],
    prune_failed: [],
    ignored: 0,
    ignored_in_library: [],
    warnings: [],
    ids: [],
    duration_ms: 0,
  };
  const baseMetadata = options.metadata ?? {};
  const scope = options.endUserId !== undefined ? { end_user_id: options.endUserId } : {};

  // What the library holds now, by source_ref. A failure here (bad key,
  // unreachable URL) stops the run before anything is sent.
  const existing = new Map<string, Document[]>();
  for await (const doc of client.documents.iterate({ ...scope, limit: 100 })) {
    if (doc.source_ref === null) continue;
    const list = existing.get(doc.source_ref) ?? [];
    list.push(doc);
    existing.set(doc.source_ref, list);
  }

  // The plan: one action per file.
  const rules = new PushIgnore(options.exclude);
  const files: LocalFile[] = [];
  for await (const relativePath of walk(options.folder, rules, () => (summary.ignored += 1))) {
    const path = join(options.folder, ...relativePath.split('/'));
    const sourceRef = prefix + relativePath;
    const fileSize = (await stat(path)).size;
    if (fileSize > MAX_FILE_BYTES) {
      files.push({ path, sourceRef, size: fileSize, action: 'too_large', metadata: baseMetadata });
      continue;
    }
    const local = await readLocal(path, baseMetadata);
    for (const detail of local.warnings) summary.warnings.push({ path: sourceRef, detail });
    const sha256 = createHash('sha256').update(local.bytes).digest('hex');
    const docs = existing.get(sourceRef) ?? [];
    let action: Action = !docs.length
      ? 'new'
      : docs.every((d) => d.sha256 === sha256 && d.status !== 'failed')
        ? 'unchanged'
        : 'changed';
    let patches: LocalFile['patches'];
    if (action === 'unchanged') {
      // The text is there: the metadata may not be (front matter or --metadata edited since).
      patches = docs
        .filter((d) => !sameMetadata(d.metadata, local.metadata))
        .map((d) => ({ id: d.id, patch: metadataPatch(d.metadata, local.metadata) }));
      if (patches.length) action = 'metadata';
    }
    // Only a dry run asks: a real run sends the file, and the service's answer is the word that counts.
    const predicted =
      options.dryRun && (action === 'new' || action === 'changed')
        ? await predictRejection(local.bytes, { filename: basename(path), contentType: declaredContentType(path) })
        : undefined;
    files.push({
      path,
      sourceRef,
      size: local.bytes.length,
      sha256,
      action,
      metadata: local.metadata,
      ...(patches?.length ? { patches } : {}),
      ...(predicted ? { predicted } : {}),
    });
  }
  summary.files = files.length;
  reporter.start?.(files.length);

  // Documents without a file this run pushes: gone (--prune deletes them), or
  // ignored. An ignored file is out of sight, as an excluded one is for
  // rsync --delete: a rule added to keep a file from being sent does not
  // delete what is already in the library; --prune-ignored does, on request.
  const present = new Set(files.map((f) => f.sourceRef));
  const stale: Array<{ source_ref: string; id: string }> = [];
  for (const [ref, docs] of existing) {
    if (present.has(ref) || !prunable(ref, prefix)) continue;
    const list = rules.ignores(ref.slice(prefix.length), false) ? summary.ignored_in_library : stale;
    for (const d of docs) list.push({ source_ref: ref, id: d.id });
  }
  const toPrune = [...(options.prune ? stale : []), ...(options.pruneIgnored ? summary.ignored_in_library : [])];
  if (options.pruneIgnored) summary.ignored_in_library = [];

  for (const file of files) {
    if (file.action === 'too_large') {
      const detail = `${file.size} bytes, over the ${MAX_FILE_BYTES}-byte limit; not sent`;
      summary.rejected.push({ path: file.sourceRef, code: 'too_large', detail });
      reporter.file?.({
        path: file.sourceRef,
        outcome: options.dryRun ? 'would_reject' : 'rejected',
        detail: `too_large: ${detail}`,
      });
    } else if (file.action === 'unchanged') {
      summary.unchanged += 1;
      for (const d of existing.get(file.sourceRef) ?? []) summary.ids.push(d.id);
      reporter.file?.({ path: file.sourceRef, outcome: 'unchanged' });
    }
  }
  const toSend = files.filter((f) => f.action === 'new' || f.action === 'changed');
  const toPatch = files.filter((f) => f.action === 'metadata');
  const keysOf = (file: LocalFile) =>
    [...new Set((file.patches ?? []).flatMap((p) => Object.keys(p.patch)))].join(', ');

  if (options.dryRun) {
    for (const file of toSend) {
      if (file.predicted) {
        const { code, detail } = file.predicted;
        summary.rejected.push({ path: file.sourceRef, code, detail });
        reporter.file?.({ path: file.sourceRef, outcome: 'would_reject', detail: `${code}: ${detail}` });
        continue;
      }
      if (file.action === 'new') summary.created += 1;
      else summary.replaced += 1;
      reporter.file?.({ path: file.sourceRef, outcome: file.action === 'new' ? 'would_create' : 'would_replace' });
    }
    for (const file of toPatch) {
      summary.metadata_updated += 1;
      reporter.file?.({ path: file.sourceRef, outcome: 'would_update_metadata', detail: keysOf(file) });
    }
    summary.pruned = toPrune;
    for (const s of toPrune) reporter.line?.(`would prune ${s.source_ref} (${s.id})`);
    summary.duration_ms = Date.now() - started;
    return summary;
  }

  // Batches: up to 20 items and under the body limit.
  const batches: LocalFile[][] = [];
  let batch: LocalFile[] = [];
  let batchBytes = 0;
  for (const file of toSend) {
    const itemBytes =
      Math.ceil(file.size / 3) * 4 + file.sourceRef.length * 2 + JSON.stringify(file.metadata).length + 300;
    if (batch.length && (batch.length === BATCH || batchBytes + itemBytes > MAX_BATCH_BODY)) {
      batches.push(batch);
      batch = [];
      batchBytes = 0;
    }
    batch.push(file);
    batchBytes += itemBytes;
  }
  if (batch.length) batches.push(batch);

  await pool(batches, options.concurrency ?? 4, async (group) => {
    try {
      const items: CaptureInput[] = await Promise.all(
        group.map(async (file): Promise<CaptureInput> => {
          const local = await readLocal(file.path, baseMetadata);
          return {
            content_base64: local.bytes.toString('base64'),
            filename: file.sourceRef.split('/').pop()!,
            content_type: declaredContentType(file.path),
            source_ref: file.sourceRef,
            ...(Object.keys(local.metadata).length ? { metadata: local.metadata } : {}),
            ...(file.action === 'changed' ? { replace_source_ref: true } : {}),
          };
        }),
      );
      const answer = await client.captureBatch(items, scope);
      answer.results.forEach((receipt, i) => {
        const file = group[receipt.index ?? i]!;
        if (receipt.id) summary.ids.push(receipt.id);
        if (receipt.status === 'rejected') {
          summary.rejected.push({ path: file.sourceRef, code: receipt.reject_code, detail: receipt.detail });
          reporter.file?.({
            path: file.sourceRef,
            outcome: 'rejected',
            detail: `${receipt.reject_code}: ${receipt.detail}`,
          });
        } else if (receipt.status === 'deduped') {
          summary.deduped += 1;
          reporter.file?.({ path: file.sourceRef, outcome: 'deduped' });
        } else if (file.action === 'changed') {
          summary.replaced += 1;
          reporter.file?.({ path: file.sourceRef, outcome: 'replaced' });
        } else {
          summary.created += 1;
          reporter.file?.({ path: file.sourceRef, outcome: 'created' });
        }
      });
    } catch (error) {
      // Fatal for the whole run only when the key is refused; anything else
      // (a timeout, a server error, the server gone) fails this batch alone.
      if (error instanceof LibraryError && error.status === 401) throw error;
      for (const file of group) {
        summary.failed.push({ path: file.sourceRef, error: errorText(error) });
        reporter.file?.({ path: file.sourceRef, outcome: 'failed', detail: errorText(error) });
      }
    }
  });

  // Front matter (or --metadata) edited alone: the documents keep their text, passages and vectors; only the metadata changes.
  await pool(toPatch, options.concurrency ?? 4, async (file) => {
    try {
      for (const { id, patch } of file.patches ?? []) {
        await client.documents.update(id, { metadata: patch }, scope);
        summary.ids.push(id);
      }
      summary.metadata_updated += 1;
      reporter.file?.({ path: file.sourceRef, outcome: 'metadata_updated', detail: keysOf(file) });
    } catch (error) {
      if (error instanceof LibraryError && error.status === 401) throw error;
      if (error instanceof LibraryError && error.status === 422) {
        summary.rejected.push({ path: file.sourceRef, code: error.code, detail: error.message });
        reporter.file?.({ path: file.sourceRef, outcome: 'rejected', detail: `${error.code}: ${error.message}` });
      } else {
        summary.failed.push({ path: file.sourceRef, error: errorText(error) });
        reporter.file?.({ path: file.sourceRef, outcome: 'failed', detail: errorText(error) });
      }
    }
  });

  if (toPrune.length) {
    // A document a receipt named this run is in use (a renamed file deduped
    // onto it): it stays.
    const used = new Set(summary.ids);
    await pool(
      toPrune.filter((s) => !used.has(s.id)),
      options.concurrency ?? 4,
      async (s) => {
        try {
          await client.documents.delete(s.id, scope);
          summary.pruned.push(s);
          reporter.line?.(`pruned ${s.source_ref} (${s.id})`);
        } catch (error) {
          if (error instanceof LibraryError && error.status === 404) return; // gone already
          summary.prune_failed.push({ ...s, error: errorText(error) });
          reporter.line?.(`prune failed ${s.source_ref} (${s.id}): ${errorText(error)}`);
        }
      },
    );
  }
  summary.ids = [...new Set(summary.ids)];
  summary.duration_ms = Date.now() - started;
  return summary;
}

/**
 * `--wait`: follows the pushed documents until none is `processing`, printing
 * how many are ready, failed and still indexing (with the passages embedded).
 */
export async function waitForIndexing(
  options: Pick<PushOptions, 'url' | 'apiKey' | 'endUserId' | 'retries' | 'timeoutMs' | 'retryBaseMs' | 'fetch'>,
  ids: readonly string[],
  log: (line: string) => void = console.log,
  pollMs = 1000,
): Promise<{ ready: number; failed: Array<{ id: string; reason: string | null }> }> {
  const client = makeClient(options);
  const scope = options.endUserId !== undefined ? { end_user_id: options.endUserId } : {};
  const pending = new Set(ids);
  let ready = 0;
  const failed: Array<{ id: string; reason: string | null }> = [];
  while (pending.size) {
    let passages = 0;
    let embedded = 0;
    for (const id of [...pending]) {
      let doc: Document;
      try {
        doc = await client.documents.get(id, scope);
      } catch (error) {
        if (error instanceof LibraryError && error.status === 404) {
          pending.delete(id); // deleted meanwhile (or replaced)
          continue;
        }
        throw error;
      }
      if (doc.status === 'ready') ready += 1;
      else if (doc.status === 'failed') failed.push({ id, reason: doc.failure_reason });
      else {
        passages += doc.passages ?? 0;
        embedded += doc.passages_embedded;
        continue;
      }
      pending.delete(id);
    }
    log(
      `indexing: ${ready} ready, ${failed.length} failed, ${pending.size} processing (${embedded}/${passages} passages embedded)`,
    );
    if (pending.size) await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return { ready, failed };
}

/** True when the run should exit non-zero. */
export function pushFailed(summary: PushSummary, indexing?: { failed: unknown[] } | null): boolean {
  return (
    summary.rejected.length > 0 ||
    summary.failed.length > 0 ||
    summary.prune_failed.length > 0 ||
    (indexing?.failed.length ?? 0) > 0
  );
}

/** Commander's collector for the repeatable `--exclude pattern` (the order matters: a later `!pattern` re-includes). */
function collectPattern(pattern: string, previous: string[] = []): string[] {
  return [...previous, pattern];
}

/** Commander's collector for the repeatable `--metadata key=value`. */
function collectMetadata(pair: string, previous: Metadata = {}): Metadata {
  try {
    const [key, value] = parseMetadataPair(pair);
    return Object.fromEntries([...Object.entries(previous).filter(([k]) => k !== key), [key, value]]);
  } catch (error) {
    throw new InvalidArgumentError(errorText(error));
  }
}

interface Output {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

const WOULD: Partial<Record<PushEvent['outcome'], keyof ProgressCounts>> = {
  would_create: 'created',
  would_replace: 'replaced',
  would_update_metadata: 'metadata_updated',
  would_reject: 'rejected',
};

/** A progress line (bar, counts, rate, ETA, the last file) on a terminal, fitted to its width; a plain line per file otherwise. */
function makeReporter(out: NodeJS.WriteStream, tty: boolean, quietFiles: boolean): PushReporter & { stop(): void } {
  const counts: ProgressCounts = {
    created: 0,
    replaced: 0,
    deduped: 0,
    metadata_updated: 0,
    unchanged: 0,
    rejected: 0,
    failed: 0,
  };
  if (!tty) {
    return {
      file: (e) => {
        if (!quietFiles) out.write(`${e.outcome.padEnd(13)} ${e.path}${e.detail ? ` (${e.detail})` : ''}\n`);
      },
      retry: (r) => out.write(`waiting ${(r.delayMs / 1000).toFixed(1)} s (${r.reason}), attempt ${r.attempt}\n`),
      line: (t) => out.write(`${t}\n`),
      stop: () => undefined,
    };
  }
  type Payload = { rate: number; file?: string; note?: string };
  // A MultiBar holding one bar: it can print lines (rejections) above the
  // bar. The line is ours (push-progress.ts): cli-progress's format strings
  // cannot shorten one part to make the rest fit.
  const multi = new cliProgress.MultiBar(
    {
      stream: out,
      format: (_options, params, payload: Payload) =>
        formatProgressLine(
          { done: params.value, total: params.total, etaSeconds: params.eta, counts, ...payload },
          params.maxWidth,
        ),
      hideCursor: true,
      etaBuffer: 50,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  let bar: cliProgress.SingleBar | null = null;
  let startedAt = Date.now();
  let done = 0;
  let lastFile: string | undefined;
  const payload = (note?: string): Payload => ({
    rate: done / Math.max(0.001, (Date.now() - startedAt) / 1000),
    file: lastFile,
    note,
  });
  return {
    start: (total) => {
      startedAt = Date.now();
      bar = multi.create(total, 0, payload());
    },
    file: (e) => {
      done += 1;
      lastFile = e.path;
      // A dry run counts what would happen under the same names (its summary line says "to create").
      const outcome = WOULD[e.outcome] ?? e.outcome;
      if (outcome in counts) counts[outcome as keyof ProgressCounts] += 1;
      if (e.outcome === 'rejected' || e.outcome === 'failed' || e.outcome === 'would_reject')
        multi.log(`${e.outcome} ${e.path} (${e.detail})\n`);
      bar?.increment(1, payload());
    },
    retry: (r) => bar?.update(payload(`waiting ${(r.delayMs / 1000).toFixed(1)} s (${r.reason})`)),
    line: (t) => multi.log(`${t}\n`),
    stop: () => {
      // A last redraw first: it prints the lines logged since the one before (stop would drop them).
      if (bar) multi.update();
      multi.stop();
    },
  };
}

function human(summary: PushSummary, indexing: { ready: number; failed: unknown[] } | null): string {
  const would = (done: string, todo: string) => (summary.dry_run ? `to ${todo}` : done);
  const lines = [
    `${summary.dry_run ? 'dry run: ' : ''}${summary.files} files: ${summary.created} ${would('created', 'create')}, ${summary.replaced} ${would('replaced', 'replace')}, ${summary.deduped} deduped, ${summary.metadata_updated} ${summary.dry_run ? 'to update metadata' : 'metadata updated'}, ${summary.unchanged} unchanged, ${summary.rejected.length} ${would('rejected', 'reject')}, ${summary.failed.length} failed; ${summary.pruned.length} ${summary.dry_run ? 'to prune' : 'pruned'}${summary.prune_failed.length ? ` (${summary.prune_failed.length} prune failures)` : ''}; ${summary.ignored} ignored`,
  ];
  const kept = summary.ignored_in_library.length;
  if (kept)
    lines.push(
      `  ${kept} document${kept === 1 ? '' : 's'} of ignored files left in the library (--prune-ignored deletes them)`,
    );
  for (const w of summary.warnings) lines.push(`  warning  ${w.path}: ${w.detail}`);
  for (const r of summary.rejected)
    lines.push(`  ${summary.dry_run ? 'would reject' : 'rejected'} ${r.path}: ${r.code}: ${r.detail}`);
  for (const f of summary.failed) lines.push(`  failed   ${f.path}: ${f.error}`);
  if (indexing) lines.push(`indexed: ${indexing.ready} ready, ${indexing.failed.length} failed`);
  return lines.join('\n');
}

/**
 * The `library push` command line. Returns the exit code: 0 when every file
 * is in the library, 1 when anything was rejected or failed (or the run could
 * not start), 2 for a usage error; --help and --version print and return 0.
 */
export async function runPushCommand(
  argv: string[],
  context: { version: string; defaultUrl: string; env?: NodeJS.ProcessEnv; out?: Output },
): Promise<number> {
  const env = context.env ?? process.env;
  const out = context.out ?? { stdout: process.stdout, stderr: process.stderr };
  const int = (name: string, min: number) => (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be an integer >= ${min}`);
    return n;
  };
  const program = new Command('library push')
    .description(
      'Keep FOLDER in step with a library: new files are captured, edited files replace their document, unchanged files are skipped; with --prune, documents whose file is gone are deleted.',
    )
    .argument(
      '<folder>',
      `the folder to push (hidden files and folders are skipped, and what ${IGNORE_FILE} files and --exclude leave out)`,
    )
    .option('-k, --key <key>', 'API key (default $LIBRARY_API_KEY)')
    .option(
      '-u, --url <url>',
      `API URL, the service root or the deployed .../v1 URL (default $LIBRARY_URL, else ${context.defaultUrl})`,
    )
    .option('-e, --end-user <id>', "the end user's library (default: the shared library)")
    .option('--prefix <prefix>', 'prepended to each relative path to form its source_ref', '')
    .option('-c, --concurrency <n>', 'batches in flight at once', int('--concurrency', 1), 4)
    .option('-m, --metadata <key=value>', 'metadata for every pushed file (repeatable; see below)', collectMetadata)
    .option(
      '-x, --exclude <pattern>',
      `leave out what this gitignore-syntax pattern matches, as a line of ${IGNORE_FILE} would (repeatable; see below)`,
      collectPattern,
    )
    .option('--prune', 'delete documents whose source_ref (under --prefix) names a file that is gone')
    .option('--prune-ignored', 'delete documents whose file is now left out by the ignore rules (kept without it)')
    .option(
      '-n, --dry-run',
      'say what would change, and what the service would reject, exiting as the real run would; send and delete nothing',
    )
    .option('--json', 'print one JSON summary on stdout (progress goes to stderr on a terminal)')
    .option('-w, --wait', 'then follow indexing until every pushed document is ready or failed')
    .option('--retries <n>', 'retries of a request answered 429/503 or cut off', int('--retries', 0), 6)
    .option('--timeout <seconds>', 'per request', int('--timeout', 1), 120)
    .version(context.version, '-V, --version')
    .helpOption('-h, --help')
    .exitOverride()
    .configureOutput({ writeOut: (s) => out.stdout.write(s), writeErr: (s) => out.stderr.write(s) })
    .addHelpText(
      'after',
      `
Leaving files out (gitignore syntax, as git reads a .gitignore):
  A ${IGNORE_FILE} file in FOLDER, or in any folder under it, lists patterns for the
  paths under its own folder (*.log, build/, /top-level-only.txt, drafts/**/*.tmp,
  !keep.log); a deeper file's rule wins over one above it, and nothing under an
  ignored folder is looked at. --exclude PATTERN (repeatable) adds patterns relative
  to FOLDER that the files cannot undo. A left-out file is never read nor sent.
  If an earlier run pushed it, its document is left in the library as it is: not
  updated, not counted, and not deleted by --prune (an ignore rule says "do not
  send", not "delete"; the run says how many such documents there are).
  --prune-ignored deletes them. Hidden files and folders (.git, ${IGNORE_FILE}) are
  always skipped.

Dry run: --dry-run reads every file it would send and runs the service's own checks
  on it (the 4 MiB limit, empty files, types no text can be read from: archives,
  audio, video, executables, binary data, invalid JSON), so it reports the files the
  run would reject and exits 1 as the run would. What only reading a PDF, DOCX or
  image can show (page and OCR limits) is learnt by the run (--wait).

Progress: on a terminal, one line fitted to its width shows the files done, the
  created / replaced / unchanged / rejected / failed counts (deduped and metadata
  updated once there are some), the rate, the ETA and the last file; the file name is
  shortened first, the counts never. Elsewhere (a pipe, a log) a line per file.

Metadata (filters read it: GET /v1/search?filter=..., and grep, documents, chat):
  --metadata key=value applies to every pushed file; repeat it for more keys (the last
  value of a key wins). A value written as a number (42, -1.5, 2e3; not 007 or +1) is
  a number, true and false are booleans, anything else is a string.
  A Markdown file (.md, .markdown) opening with YAML front matter (a line ---, YAML, a
  line ---) gets its top-level keys as metadata, over the --metadata pairs. Kept:
  strings, finite numbers, booleans, dates (as written: 2026-01-15) and lists of these
  (as lists of strings). Left out, with a warning: empty values, nested mappings,
  lists holding mappings or lists, keys the rules refuse (a letter or _, then at most
  63 letters, digits, _ . -) and values over the limits (strings 1024 characters,
  lists 64 items of 256). Front matter that is not valid YAML, or not a mapping, is
  left in the text, with a warning. Otherwise the front matter is not captured: the
  document's text (and file) is the body after it (a file that is only front matter
  is captured whole), so an edit of the front matter alone updates the document's
  metadata in place (PATCH, reported as metadata_updated), with nothing captured or
  embedded again. Each document's metadata is made exactly what the run computes:
  keys no longer given (by --metadata or the front matter) are removed.

Exit status: 0 when every file is in the library; 1 when a file was rejected or failed
(with --dry-run: would be rejected), a prune failed or the run could not start; 2 on a
usage error. Ignored files count for nothing: a file the service refuses (an empty
file, an archive) fails every run until a rule leaves it out.
Rate limits (429) and unavailability (503) are waited out (Retry-After honoured).`,
    );

  const exit = parseOrExit(program, argv);
  if (exit !== null) return exit;
  const opts = program.opts<{
    key?: string;
    url?: string;
    endUser?: string;
    prefix: string;
    concurrency: number;
    metadata?: Metadata;
    exclude?: string[];
    prune?: boolean;
    pruneIgnored?: boolean;
    dryRun?: boolean;
    json?: boolean;
    wait?: boolean;
    retries: number;
    timeout: number;
  }>();
  const folder = program.args[0]!;
  const apiKey = opts.key ?? env.LIBRARY_API_KEY;
  if (!apiKey) {
    out.stderr.write('library push: no API key: pass --key KEY or set $LIBRARY_API_KEY\n');
    return 2;
  }
  try {
    if (!(await stat(folder)).isDirectory()) throw new Error('not a folder');
  } catch (error) {
    out.stderr.write(`library push: ${folder}: ${errorText(error)}\n`);
    return 2;
  }
  const url = opts.url ?? env.LIBRARY_URL ?? context.defaultUrl;
  const options: PushOptions = {
    folder,
    url,
    apiKey,
    endUserId: opts.endUser,
    prefix: opts.prefix,
    concurrency: opts.concurrency,
    prune: !!opts.prune,
    pruneIgnored: !!opts.pruneIgnored,
    exclude: opts.exclude,
    dryRun: !!opts.dryRun,
    retries: opts.retries,
    timeoutMs: opts.timeout * 1000,
    metadata: opts.metadata,
  };
  const progressStream = opts.json ? out.stderr : out.stdout;
  const reporter = makeReporter(progressStream, !!progressStream.isTTY, !!opts.json);
  let summary: PushSummary;
  try {
    summary = await pushFolder(options, reporter);
  } catch (error) {
    reporter.stop();
    const message = errorText(error);
    if (opts.json) out.stdout.write(`${JSON.stringify({ url, folder, error: message })}\n`);
    out.stderr.write(`library push: ${message}\n`);
    return 1;
  }
  reporter.stop();
  let indexing: { ready: number; failed: Array<{ id: string; reason: string | null }> } | null = null;
  if (opts.wait && !opts.dryRun) {
    try {
      indexing = await waitForIndexing(options, summary.ids, (line) =>
        opts.json ? undefined : out.stdout.write(`${line}\n`),
      );
    } catch (error) {
      out.stderr.write(`library push: --wait: ${errorText(error)}\n`);
      return 1;
    }
  }
  if (opts.json) {
    const { ids, ...rest } = summary;
    out.stdout.write(`${JSON.stringify({ ...rest, documents: ids.length, ...(indexing ? { indexing } : {}) })}\n`);
  } else {
    out.stdout.write(`${human(summary, indexing)}\n`);
  }
  return pushFailed(summary, indexing) ? 1 : 0;
}
