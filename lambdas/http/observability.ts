import { Logger } from '@aws-lambda-powertools/logger';

/** Created once per process and shared by every handler (Powertools' own advice). */
export const logger = new Logger({ serviceName: 'library' });
