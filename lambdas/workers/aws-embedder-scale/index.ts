import { embedder } from '../../wiring/aws/bedrock.js';
import { awsConfig } from '../../wiring/aws/config.js';
import { createHandler } from './handler.js';

/** Lambda entry of the embedder-scale custom resource: the deployed Titan model calibrated at deploy time. */
const { modelId, dimensions } = awsConfig().embedding;
export const handler = createHandler({ embedder, physicalId: `embedder-scale:${modelId}/${dimensions}` });
