import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { instrumented } from '../../wiring/aws/observability.js';
import { CONSOLE_ASSET_DIR, readConsoleBuild } from '../console/build.js';
import { createHandler } from './handler.js';

/** Lambda entry: the console's built files, copied beside this bundle at synth (lib/api-stack.ts). */
const here = dirname(fileURLToPath(import.meta.url));
export const handler = instrumented(
  createHandler({ loadBuild: () => readConsoleBuild(join(here, CONSOLE_ASSET_DIR)) }),
);
