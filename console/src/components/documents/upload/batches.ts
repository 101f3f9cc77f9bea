/**
 * How files are cut into batches for `POST /v1/capture/batch` (API.md,
 * "Limits"): at most 20 items and a request body under 6 MB, a file of at
 * most 4 MiB. A file's JSON is estimated from its size before it is read, so
 * a thousand files are never all held in memory at once.
 */
export const MAX_ITEMS = 20;
export const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** Under the contract's 6 MB (read as 6,000,000 bytes), with room for the JSON around the items. */
export const MAX_BATCH_BYTES = 5_900_000;

export interface Sized {
  size: number;
  name: string;
  path: string;
}

/** The bytes an item takes in the batch's JSON: its base64, and its names escaped at worst (six bytes a character). */
export function itemBytes(file: Sized): number {
  return 4 * Math.ceil(file.size / 3) + 6 * (file.name.length + file.path.length) + 300;
}

/** The first files of `pending` that fit one batch (always at least one). */
export function nextBatch<T extends Sized>(pending: readonly T[]): T[] {
  const batch: T[] = [];
  let bytes = 0;
  for (const file of pending) {
    const size = itemBytes(file);
    if (batch.length >= MAX_ITEMS || (batch.length > 0 && bytes + size > MAX_BATCH_BYTES)) break;
    batch.push(file);
    bytes += size;
  }
  return batch;
}

/** A file's path inside what was dropped or chosen (`./a.txt`, `/folder/a.txt`, `folder/a.txt`) without the leading `./` or `/`. */
export function relativePath(file: File & { path?: string; relativePath?: string }): string {
  const path = file.relativePath || file.path || file.webkitRelativePath || file.name;
  return path.replace(/^(\.\/|\/)+/, '') || file.name;
}

/** The file's bytes as base64 (FileReader's data: URL, without its prefix). */
export function readBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });
}
