import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { BlobStore } from '../../core/ports.js';

/** The name a write gives its bytes until they are whole (put). */
const TEMPORARY = /^\.[0-9a-f]{12}\.tmp$/;

/** Raw bytes as files under one folder; written to a temporary name then renamed, so a crash never leaves half a file. */
export class FolderBlobStore implements BlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private path(key: string): string {
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new Error(`blob key outside the store: ${key}`);
    return path;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
    await writeFile(temporary, bytes);
    await rename(temporary, path);
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      return await readFile(this.path(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Resolves when the folder can be written (for health). */
  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  /**
   * Every file last written before `before` (ms since the epoch): a blob's
   * key, or a temporary file a write left when its process died (`key` its
   * path from the root, as delete takes it). For the local stack's sweep of
   * files no record names (wiring/local/orphan-blobs.ts).
   */
  async *filesWrittenBefore(before: number): AsyncGenerator<{ key: string; temporary: boolean }> {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(this.root, { recursive: true, withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      const written = await stat(path).then(
        (info) => info.mtimeMs,
        () => null, // gone meanwhile
      );
      if (written === null || written >= before) continue;
      yield { key: relative(this.root, path).split(sep).join('/'), temporary: TEMPORARY.test(entry.name) };
    }
  }
}
