import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readAwsConfig } from '../../wiring/aws/config.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { CONSOLE_ASSET_DIR, readConsoleBuild } from './build.js';
import { createHandler } from './handler.js';

/** Lambda entry: the console's page; the built console was copied beside this bundle at synth (lib/api-stack.ts). */
const here = dirname(fileURLToPath(import.meta.url));
export const handler = instrumented(
  createHandler({ version: readAwsConfig().version, loadBuild: () => readConsoleBuild(join(here, CONSOLE_ASSET_DIR)) }),
);
