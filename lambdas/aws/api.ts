import { SqsIngestQueue } from '../adapters/aws/sqs-ingest-queue.js';
import { buildServices, type Services } from '../core/services.js';
import { createAwsClients } from './clients.js';
import { readAwsConfig, type AwsConfig } from './config.js';
import { InlineTextExtractor } from './inline-extractor.js';
import { buildAwsPorts } from './ports.js';

/**
 * The composition root of the API functions: config read once (failing fast),
 * SDK clients made once, AWS adapters behind the ports, the core's services.
 * Every endpoint's index.ts calls this at cold start.
 */
export interface ApiRoot {
  config: AwsConfig;
  services: Services;
}

let root: ApiRoot | undefined;

export function apiRoot(): ApiRoot {
  if (root) return root;
  const config = readAwsConfig();
  const clients = createAwsClients(config);
  const ports = buildAwsPorts(config, clients, new InlineTextExtractor());
  const services = buildServices(ports, {
    ingest: { queue: new SqsIngestQueue(clients.sqs, config.ingestQueueUrl), inlineMaxBytes: config.inlineMaxBytes },
  });
  root = { config, services };
  return root;
}
