import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import mime from 'mime-types';
import { LIMITS } from '../lambdas/core/limits.js';

/**
 * `library push FOLDER`: captures every file under a folder through the API,
 * 20 per batch (the contract's limit), each with its relative path as
 * source_ref. The server decides each file's real type from its bytes.
 */
export interface PushOptions {
  folder: string;
  url: string;
  apiKey: string;
  endUserId?: string;
}

export interface PushSummary {
  files: number;
  created: number;
  deduped: number;
  rejected: Array<{ path: string; code: string | null; detail: string }>;
  /** Ids of the documents the receipts named (created or deduped), for --wait. */
  ids: string[];
}

const BATCH = LIMITS.batchItems;
/** Keep each request under the contract's body limit, with room for the JSON around the items. */
const MAX_BATCH_BODY = Math.floor(LIMITS.requestBodyBytes * 0.875);
/** Files larger than the contract's per-item limit are reported, not sent. */
const MAX_FILE_BYTES = LIMITS.fileBytes;

async function* walk(folder: string): AsyncGenerator<string> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue; // hidden files and folders (.git, .DS_Store)
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

export async function pushFolder(options: PushOptions, log: (line: string) => void = console.log): Promise<PushSummary> {
  const summary: PushSummary = { files: 0, created: 0, deduped: 0, rejected: [], ids: [] };
  let batch: Array<{ path: string; item: Record<string, string> }> = [];
  let batchBytes = 0;

  const send = async () => {
    if (!batch.length) return;
    const response = await fetch(`${options.url.replace(/\/$/, '')}/v1/capture/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ items: batch.map((b) => b.item), ...(options.endUserId ? { end_user_id: options.endUserId } : {}) }),
    });
    const body = (await response.json()) as {
      results?: Array<{ status: string; reject_code: string | null; detail: string; id: string | null }>;
      error?: { message: string };
    };
    if (!response.ok || !body.results) throw new Error(`capture failed (${response.status}): ${body.error?.message ?? 'unknown error'}`);
    body.results.forEach((receipt, i) => {
      const path = batch[i]!.path;
      if (receipt.id) summary.ids.push(receipt.id);
      if (receipt.status === 'created') summary.created += 1;
      else if (receipt.status === 'deduped') summary.deduped += 1;
      else summary.rejected.push({ path, code: receipt.reject_code, detail: receipt.detail });
      log(`${receipt.status.padEnd(8)} ${path}${receipt.reject_code ? ` (${receipt.reject_code}: ${receipt.detail})` : ''}`);
    });
    batch = [];
    batchBytes = 0;
  };

  for await (const path of walk(options.folder)) {
    summary.files += 1;
    const sourceRef = relative(options.folder, path);
    if ((await stat(path)).size > MAX_FILE_BYTES) {
      summary.rejected.push({ path: sourceRef, code: 'too_large', detail: 'over 4 MiB; not sent' });
      log(`rejected ${sourceRef} (too_large: over 4 MiB; not sent)`);
      continue;
    }
    const item = {
      content_base64: (await readFile(path)).toString('base64'),
      filename: sourceRef.split(/[\\/]/).pop()!,
      content_type: mime.lookup(path) || 'application/octet-stream',
      source_ref: sourceRef,
    };
    const itemBytes = item.content_base64.length + sourceRef.length * 2 + 200;
    if (batchBytes + itemBytes > MAX_BATCH_BODY) await send();
    batch.push({ path: sourceRef, item });
    batchBytes += itemBytes;
    if (batch.length === BATCH) await send();
  }
  await send();
  return summary;
}

/**
 * `--wait`: follows the pushed documents until none is `processing`, printing
 * how many are ready, failed and still indexing (with the passages embedded).
 */
export async function waitForIndexing(
  options: Pick<PushOptions, 'url' | 'apiKey' | 'endUserId'>,
  ids: readonly string[],
  log: (line: string) => void = console.log,
  pollMs = 1000,
): Promise<{ ready: number; failed: Array<{ id: string; reason: string | null }> }> {
  const pending = new Set(ids);
  let ready = 0;
  const failed: Array<{ id: string; reason: string | null }> = [];
  const query = options.endUserId ? `?end_user_id=${encodeURIComponent(options.endUserId)}` : '';
  while (pending.size) {
    let passages = 0;
    let embedded = 0;
    for (const id of [...pending]) {
      const response = await fetch(`${options.url.replace(/\/$/, '')}/v1/documents/${id}${query}`, { headers: { authorization: `Bearer ${options.apiKey}` } });
      if (response.status === 404) {
        pending.delete(id); // deleted meanwhile
        continue;
      }
      const doc = (await response.json()) as { status: string; failure_reason: string | null; passages: number | null; passages_embedded: number };
      if (doc.status === 'ready') ready += 1;
      else if (doc.status === 'failed') failed.push({ id, reason: doc.failure_reason });
      else {
        passages += doc.passages ?? 0;
        embedded += doc.passages_embedded;
        continue;
      }
      pending.delete(id);
    }
    log(`indexing: ${ready} ready, ${failed.length} failed, ${pending.size} processing (${embedded}/${passages} passages embedded)`);
    if (pending.size) await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return { ready, failed };
}
