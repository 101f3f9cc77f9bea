import { usageLedger } from '../../aws/dynamo.js';
import { awsServices } from '../../aws/services.js';
import { createHandler } from './handler.js';

/** Lambda entry: reads the usage ledger only. */
export const handler = createHandler(awsServices({ usage: usageLedger() }));
