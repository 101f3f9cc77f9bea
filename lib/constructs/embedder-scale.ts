import { createHash } from 'node:crypto';
import { CustomResource, Fn } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as cr from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import { CALIBRATION_PAIRS } from '../../lambdas/core/chat/calibration-pairs.js';
import type { LibraryFunction } from './library-function.js';

export interface EmbedderScaleProps {
  /** The function that measures the scale (lambdas/workers/aws-embedder-scale), allowed to invoke the embedding model. */
  readonly handler: LibraryFunction;
  readonly modelId: string;
  readonly dimensions: number;
  readonly logRetentionDays: number;
}

/**
 * The deployed embedder's cosine scale (core/chat/calibration.ts), measured
 * at deploy time by a custom resource: created with the stack, measured again
 * whenever the embedding model, its dimensions or the calibration set change
 * (the resource's properties), and read by the functions that weigh cosines
 * through `value` (`related,unrelated`, set as LIBRARY_EMBEDDING_SCALE).
 */
export class EmbedderScale extends Construct {
  readonly provider: cr.Provider;
  readonly resource: CustomResource;
  /** `related,unrelated`, resolved at deploy time. */
  readonly value: string;

  constructor(scope: Construct, id: string, props: EmbedderScaleProps) {
    super(scope, id);
    this.provider = new cr.Provider(this, 'Provider', {
      onEventHandler: props.handler.fn,
      logGroup: new logs.LogGroup(this, 'ProviderLogs', { retention: props.logRetentionDays as logs.RetentionDays }),
    });
    this.resource = new CustomResource(this, 'Scale', {
      serviceToken: this.provider.serviceToken,
      resourceType: 'Custom::LibraryEmbedderScale',
      properties: {
        ModelId: props.modelId,
        Dimensions: String(props.dimensions),
        // A change to the calibration set measures the scale again.
        CalibrationSet: createHash('sha256').update(JSON.stringify(CALIBRATION_PAIRS)).digest('hex').slice(0, 16),
      },
    });
    this.value = Fn.join(',', [this.resource.getAttString('Related'), this.resource.getAttString('Unrelated')]);
  }
}
