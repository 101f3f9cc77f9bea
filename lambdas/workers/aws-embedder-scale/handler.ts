import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { measureCosineScale } from '../../core/chat/calibration.js';
import type { Embedder } from '../../core/ports.js';

/** What the provider framework (aws-cdk-lib/custom-resources) expects back from an onEvent handler. */
export interface ScaleResult {
  PhysicalResourceId: string;
  Data?: { Related: string; Unrelated: string };
}

/**
 * The stack's embedder scale (core/chat/calibration.ts), measured when the
 * stack is deployed: on create, and on an update that changes the embedding
 * model, its dimensions or the calibration set (the resource's properties),
 * the calibration set is embedded with the deployed model and its medians
 * handed to the stack, which sets them on the functions that read cosines.
 * Deleting it leaves nothing behind (it stores nothing).
 */
export function createHandler(deps: { embedder: () => Embedder; physicalId: string }) {
  return async (event: CloudFormationCustomResourceEvent): Promise<ScaleResult> => {
    if (event.RequestType === 'Delete') return { PhysicalResourceId: event.PhysicalResourceId };
    const { scale } = await measureCosineScale(deps.embedder());
    // Decimal strings: CloudFormation attributes are strings, and the functions read them back (config.ts).
    return {
      PhysicalResourceId: deps.physicalId,
      Data: { Related: scale.related.toFixed(6), Unrelated: scale.unrelated.toFixed(6) },
    };
  };
}
