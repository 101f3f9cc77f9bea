import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { BlobStore } from '../../core/ports.js';

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
}
