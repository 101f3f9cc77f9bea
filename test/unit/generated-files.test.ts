import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../lambdas/endpoints/openapi/document.js';
import { generateApiTypes } from '../../scripts/openapi-types.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('generated files', () => {
  it('client/src/api-types.ts is what npm run openapi:types writes from the OpenAPI document the service serves', async () => {
    const { version } = JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const committed = readFileSync(resolve(repoRoot, 'client/src/api-types.ts'), 'utf8');
    expect(committed).toBe(await generateApiTypes(buildOpenApiDocument(version)));
  });
});
