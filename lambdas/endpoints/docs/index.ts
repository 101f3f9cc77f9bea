import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readAwsConfig } from '../../wiring/aws/config.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { DOCS_ASSET_DIR, readDocsAssets } from './assets.js';
import { createHandler } from './handler.js';

/** Lambda entry: the API reference page; the renderer's files were copied beside this bundle at synth (lib/constructs/library-function.ts). */
const here = dirname(fileURLToPath(import.meta.url));
export const handler = instrumented(
  createHandler({ version: readAwsConfig().version, loadAssets: () => readDocsAssets(join(here, DOCS_ASSET_DIR)) }),
);
