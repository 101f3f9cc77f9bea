import { Tracer } from '@aws-lambda-powertools/tracer';

/**
 * Created once per Lambda environment and shared (Powertools' advice). The
 * logger is the HTTP layer's (lambdas/http/observability.ts); the service
 * name and log level come from POWERTOOLS_* variables the CDK stack sets.
 */
export const tracer = new Tracer({ serviceName: 'library' });
