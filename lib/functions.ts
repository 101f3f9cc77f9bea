import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Access } from '../lambdas/endpoints/access.js';
import type { RouteContract } from '../lambdas/endpoints/route-contract.js';
import { ALL_ROUTES } from '../lambdas/endpoints/routes.js';
import { NON_ROUTE_ACCESS } from './route-access.js';

/** The repository root (lib/ is one level down). */
export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Packages the ingest function loads from node_modules instead of the bundle: native code, or files read at run time. */
export const INGEST_NODE_MODULES = ['sharp', '@napi-rs/canvas', 'pdfjs-dist'] as const;

const readerThread = (name: 'full' | 'text') => ({
  entry: join(PROJECT_ROOT, 'lambdas', 'adapters', 'extraction', 'isolation', `${name}-thread.ts`),
  file: `${name}-thread.mjs`,
});

/**
 * The reader thread a function reads callers' files in (adapters/extraction/isolation),
 * bundled beside its own code: the full pipeline for the ingest worker, the
 * text formats for the capture routes; none for the others.
 */
export function readerThreadOf(spec: FunctionSpec): { entry: string; file: string } | null {
  if (spec.kind === 'ingest') return readerThread('full');
  if (spec.name === 'capture' || spec.name === 'capture-batch') return readerThread('text');
  return null;
}

export interface FunctionSpec {
  /** Also the construct id and the endpoint folder name. */
  readonly name: string;
  readonly entry: string;
  readonly kind: 'endpoint' | 'authorizer' | 'ingest' | 'sweeper' | 'embedder-scale';
  readonly route?: RouteContract;
  /** What it may touch: its route's contract's, or its line in lib/route-access.ts; none means full access (lib/api-stack.ts). */
  readonly access?: Access;
}

const endpointEntry = (name: string) => join(PROJECT_ROOT, 'lambdas', 'endpoints', name, 'index.ts');

/** Every Lambda function of the service, derived from the route table: one per route and page, the authorizer, the ingest worker, the sweeper, the embedder-scale custom resource. */
export function functionSpecs(): FunctionSpec[] {
  return [
    ...ALL_ROUTES.map(
      (route): FunctionSpec => ({
        name: route.name,
        entry: endpointEntry(route.name),
        kind: 'endpoint',
        route,
        access: route.access,
      }),
    ),
    { name: 'authorizer', entry: endpointEntry('authorizer'), kind: 'authorizer', access: NON_ROUTE_ACCESS.authorizer },
    {
      name: 'ingest',
      entry: join(PROJECT_ROOT, 'lambdas', 'workers', 'aws-ingest', 'index.ts'),
      kind: 'ingest',
      access: NON_ROUTE_ACCESS.ingest,
    },
    {
      name: 'sweeper',
      entry: join(PROJECT_ROOT, 'lambdas', 'workers', 'aws-sweeper', 'index.ts'),
      kind: 'sweeper',
      access: NON_ROUTE_ACCESS.sweeper,
    },
    // Measures the embedder's cosine scale at deploy time (a custom resource: lib/constructs/embedder-scale.ts).
    {
      name: 'embedder-scale',
      entry: join(PROJECT_ROOT, 'lambdas', 'workers', 'aws-embedder-scale', 'index.ts'),
      kind: 'embedder-scale',
      access: NON_ROUTE_ACCESS['embedder-scale'],
    },
  ];
}

/** Routes whose endpoint folder has no Lambda entry (index.ts) yet: synth refuses to deploy half an API. */
export function missingEntries(): string[] {
  return functionSpecs()
    .filter((f) => !existsSync(f.entry))
    .map((f) => f.entry);
}
