import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';

/**
 * The console as built by scripts/build-console.mjs: manifest.json (the entry
 * script and stylesheet) and the files it lists, read once into memory (a few
 * MB). Locally from console/dist; on AWS from the copy beside the bundle.
 */
export const CONSOLE_ASSET_DIR = 'console';

export interface ConsoleFile {
  body: string;
  contentType: string;
}

export interface ConsoleBuild {
  script: string;
  stylesheet: string | null;
  files: ReadonlyMap<string, ConsoleFile>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export function readConsoleBuild(folder: string): ConsoleBuild {
  const manifest = JSON.parse(readFileSync(join(folder, 'manifest.json'), 'utf8')) as {
    script: string;
    stylesheet: string | null;
    files: string[];
  };
  const files = new Map<string, ConsoleFile>();
  for (const name of manifest.files) {
    const contentType = CONTENT_TYPES[extname(name)];
    // Only what the build wrote is served, by its exact name: no path reaches the file system.
    if (contentType) files.set(name, { body: readFileSync(join(folder, name), 'utf8'), contentType });
  }
  return { script: manifest.script, stylesheet: manifest.stylesheet, files };
}
