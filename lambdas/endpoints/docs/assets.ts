import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocsAssets } from './handler.js';

/**
 * The renderer's files: swagger-ui-dist's standalone bundle and stylesheet.
 * Locally they are read from node_modules; on AWS the docs function's
 * bundling copies them beside its index.mjs, into DOCS_ASSET_DIR (lib/).
 */
export const DOCS_ASSET_PACKAGE = 'swagger-ui-dist';
export const DOCS_ASSET_FILES = { script: 'swagger-ui-bundle.js', stylesheet: 'swagger-ui.css' } as const;
/** The folder beside the Lambda bundle that holds them. */
export const DOCS_ASSET_DIR = 'swagger-ui';

export function readDocsAssets(folder: string): DocsAssets {
  return {
    script: readFileSync(join(folder, DOCS_ASSET_FILES.script), 'utf8'),
    stylesheet: readFileSync(join(folder, DOCS_ASSET_FILES.stylesheet), 'utf8'),
  };
}
