import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** The ignore file `library push` reads in the pushed folder and in each subfolder it walks into. */
export const IGNORE_FILE = '.libraryignore';

/**
 * Which paths `library push` leaves out: the `.libraryignore` files of the
 * pushed folder and its subfolders, and the `--exclude` patterns, all in
 * gitignore syntax (the `ignore` package, so `*.log`, `build/`, `/top.txt`,
 * `**\/draft-*`, `!keep.log` mean what they mean in a .gitignore).
 *
 * Paths are relative to the pushed folder, with `/`. As in git, a rule in a
 * deeper ignore file overrides one above it (so a subfolder can re-include
 * with `!`), and nothing under an ignored folder can be re-included. The
 * `--exclude` patterns are a list of their own, read as one more ignore
 * file at the pushed folder's root that nothing can override: a command
 * line that says leave it out is obeyed whatever the files say.
 */
export class PushIgnore {
  /** The rules of each ignore file read, by the folder it sits in ('' the pushed folder). */
  private readonly files = new Map<string, Ignore>();
  private readonly excludes: Ignore | null;

  constructor(excludePatterns: readonly string[] = []) {
    this.excludes = excludePatterns.length ? ignore().add(excludePatterns) : null;
  }

  /** Reads the ignore file of the folder `dir` (relative, '' the root) if it has one. Call before asking about what is in it. */
  async load(root: string, dir: string): Promise<void> {
    let text: string;
    try {
      text = await readFile(join(root, dir, IGNORE_FILE), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    this.files.set(dir, ignore().add(text));
  }

  /**
   * Whether `path` (relative, `/`-separated; a folder when `isDir`) is left
   * out: itself or any folder above it. Also asked of paths that no longer
   * exist (a document's source_ref), where only the ignore files read so far
   * count.
   */
  ignores(path: string, isDir: boolean): boolean {
    if (!ignore.isPathValid(path)) return false; // '../x', '/x': not a path under the folder, no rule speaks of it
    const parts = path.split('/');
    for (let depth = 1; depth < parts.length; depth++) {
      if (this.ignoresItself(parts.slice(0, depth).join('/'), true)) return true;
    }
    return this.ignoresItself(path, isDir);
  }

  /** The entry alone (its folders are asked separately): --exclude, then the deepest ignore file with a rule for it. */
  private ignoresItself(path: string, isDir: boolean): boolean {
    const asked = isDir ? `${path}/` : path; // gitignore's `build/` matches folders only
    if (this.excludes?.ignores(asked)) return true;
    const parts = path.split('/');
    for (let depth = parts.length - 1; depth >= 0; depth--) {
      const rules = this.files.get(parts.slice(0, depth).join('/'));
      if (!rules) continue;
      const verdict = rules.test(parts.slice(depth).join('/') + (isDir ? '/' : ''));
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }
}
