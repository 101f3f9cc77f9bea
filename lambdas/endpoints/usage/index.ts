import { usageLedger } from '../../wiring/aws/dynamo.js';
import { systemClock } from '../../core/dates.js';
import { UsageService } from '../../core/usage.js';
import { createHandler } from './handler.js';
import { instrumented } from '../../wiring/aws/observability.js';

/** Lambda entry: reads the usage ledger only. */
export const handler = instrumented(createHandler({ usage: new UsageService({ usage: usageLedger(), clock: systemClock() }) }));
