import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { measureCosineScale } from '../../../lambdas/core/chat/calibration.js';
import { ENV, embeddingScale } from '../../../lambdas/wiring/aws/config.js';
import { createHandler } from '../../../lambdas/workers/aws-embedder-scale/handler.js';
import { HashingEmbedder } from '../../support/hashing-embedder.js';
import { ShiftedEmbedder } from '../../support/shifted-embedder.js';

/** The embedder-scale custom resource (measured at deploy) and how the chat function reads what it measured. */
const event = (type: 'Create' | 'Update' | 'Delete'): CloudFormationCustomResourceEvent =>
  ({
    RequestType: type,
    PhysicalResourceId: 'embedder-scale:old/1',
    ResourceProperties: { ServiceToken: 'x' },
  }) as never;

describe('the embedder-scale custom resource', () => {
  it('measures the deployed embedder on create and update, and hands the medians to the stack', async () => {
    const embedder = new ShiftedEmbedder(new HashingEmbedder());
    const handler = createHandler({ embedder: () => embedder, physicalId: 'embedder-scale:titan/1024' });
    const { scale } = await measureCosineScale(embedder);
    for (const type of ['Create', 'Update'] as const) {
      const result = await handler(event(type));
      expect(result.PhysicalResourceId).toBe('embedder-scale:titan/1024');
      expect(Number(result.Data!.Related)).toBeCloseTo(scale.related, 5);
      expect(Number(result.Data!.Unrelated)).toBeCloseTo(scale.unrelated, 5);
      expect(Number(result.Data!.Related)).toBeGreaterThan(Number(result.Data!.Unrelated));
    }
  });

  it('deletes nothing and asks no model on delete', async () => {
    let asked = 0;
    const handler = createHandler({
      embedder: () => ({
        name: 'x',
        dimensions: 1,
        embed: async () => {
          asked += 1;
          throw new Error('no');
        },
      }),
      physicalId: 'p',
    });
    expect(await handler(event('Delete'))).toEqual({ PhysicalResourceId: 'embedder-scale:old/1' });
    expect(asked).toBe(0);
  });

  it('the chat function reads LIBRARY_EMBEDDING_SCALE as related,unrelated, and refuses a malformed one at cold start', () => {
    expect(embeddingScale({ [ENV.embeddingScale]: '0.612345,0.301000' })).toEqual({
      related: 0.612345,
      unrelated: 0.301,
    });
    expect(embeddingScale({})).toBeUndefined();
    for (const bad of ['0.3', '0.2,0.5', 'a,b', '0.5,0.2,0.1'])
      expect(() => embeddingScale({ [ENV.embeddingScale]: bad }), bad).toThrow(/LIBRARY_EMBEDDING_SCALE/);
  });
});
