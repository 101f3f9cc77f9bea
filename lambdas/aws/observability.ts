import { Metrics } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';

/**
 * Created once per Lambda environment and shared (Powertools' advice). The
 * logger is the HTTP layer's (lambdas/http/observability.ts); service name
 * and namespace come from POWERTOOLS_* variables the CDK stack sets.
 */
export const tracer = new Tracer({ serviceName: 'library' });
// Pure: a function that never imports `metrics` leaves the Metrics utility out of its bundle.
export const metrics = /* @__PURE__ */ new Metrics({ serviceName: 'library', namespace: 'Library' });
