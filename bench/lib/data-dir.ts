import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * A public data set's folder, read in place and never copied into the
 * repository: the benchmark is told where it is by an environment variable.
 * Resolved on first use, so a bench that does not need the set runs without it.
 */
export function dataSetDir(variable: string, what: string): string {
  const dir = process.env[variable];
  if (!dir)
    throw new Error(`set ${variable} to the folder holding ${what} (read in place, never copied into the repository)`);
  const path = resolve(dir);
  if (!existsSync(path)) throw new Error(`${variable}=${dir}: no such folder (it should hold ${what})`);
  return path;
}
