import { SqsIngestQueue } from '../../adapters/aws/sqs-ingest-queue.js';
import { buildServices } from '../../core/services.js';
import { createAwsClients } from '../clients.js';
import { ConfigError, ENV, readAwsConfig } from '../config.js';
import { InlineTextExtractor } from '../inline-extractor.js';
import { buildAwsPorts } from '../ports.js';
import { createHandler } from './handler.js';

/** Lambda entry of the sweeper (EventBridge schedule). */
const config = readAwsConfig();
const staleAfterSeconds = Number(process.env[ENV.staleAfterSeconds]);
if (!Number.isInteger(staleAfterSeconds) || staleAfterSeconds < 60) {
  throw new ConfigError(`${ENV.staleAfterSeconds} must be a whole number of seconds, at least 60`);
}
const clients = createAwsClients(config);
const services = buildServices(buildAwsPorts(config, clients, new InlineTextExtractor()), {
  ingest: { queue: new SqsIngestQueue(clients.sqs, config.ingestQueueUrl), inlineMaxBytes: config.inlineMaxBytes },
});

export const handler = createHandler({ ingest: services.ingest!, staleAfterSeconds });
