import type { Embedder } from '../../ports.js';
import { createEndpoint } from '../../http/endpoint.js';

export interface HealthDeps {
  embedder: Pick<Embedder, 'name' | 'dimensions'>;
  backend: 'local' | 'aws';
  version: string;
}

export const createHandler = (deps: HealthDeps) =>
  createEndpoint({
    auth: false,
    async run() {
      return {
        status: 200,
        body: {
          status: 'ok',
          version: deps.version,
          backend: deps.backend,
          embedder: { name: deps.embedder.name, dimensions: deps.embedder.dimensions },
        },
      };
    },
  });
