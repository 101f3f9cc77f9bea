import { EndUserService } from '../../core/end-users.js';
import { documentStore } from '../../wiring/aws/dynamo.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { unwired } from '../../wiring/aws/unwired-port.js';
import { createHandler } from './handler.js';

/** Lambda entry: reads the document store only (the search index, the blobs and the conversations are for erasure). */
export const handler = instrumented(
  createHandler({
    endUsers: new EndUserService({
      documents: documentStore(),
      index: unwired('index'),
      blobs: unwired('blobs'),
      conversations: unwired('conversations'),
    }),
  }),
);
