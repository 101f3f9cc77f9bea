/**
 * `@library/client/node`: the same client, whose `captureFile` also takes a
 * path on disk (read with node:fs; the filename defaults to its base name).
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { Library as BaseLibrary, type CaptureFileOptions, type FileData } from './library.js';
import type { Receipt } from './types.js';

export * from './index.js';

export class Library extends BaseLibrary {
  override async captureFile(file: string | FileData, options: CaptureFileOptions = {}): Promise<Receipt> {
    if (typeof file !== 'string') return super.captureFile(file, options);
    const bytes = new Uint8Array(await readFile(file));
    return super.captureFile(bytes, { ...options, filename: options.filename ?? basename(file) });
  }
}
