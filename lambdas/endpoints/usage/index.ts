import { systemClock } from '../../core/dates.js';
import { UsageService } from '../../core/usage.js';
import { usageLedger } from '../../wiring/aws/dynamo.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { createHandler } from './handler.js';

/** Lambda entry: reads the usage ledger only. */
export const handler = instrumented(
  createHandler({ usage: new UsageService({ usage: usageLedger(), clock: systemClock() }) }),
);
