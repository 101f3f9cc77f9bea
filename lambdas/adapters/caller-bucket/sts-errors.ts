import { BucketError } from '../../core/errors.js';
import { isTransientAwsError } from '../aws/errors.js';

interface StsLikeError {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}

/**
 * An AssumeRole failure as the core reads it: STS answered and refused
 * (AccessDenied: the trust policy, the external id, or no such role;
 * RegionDisabledException; any other 4xx) is `denied`; no usable answer
 * (network, timeout, 5xx, throttling) is `unreachable`. The detail is the
 * error's code and status only: STS's message names ARNs, never shown.
 */
export function classifyStsError(error: unknown): BucketError {
  const e = (typeof error === 'object' && error !== null ? error : {}) as StsLikeError;
  const code = e.name ?? e.code ?? 'Error';
  const status = e.$metadata?.httpStatusCode;
  const detail = status ? `${code} (HTTP ${status})` : code;
  if (isTransientAwsError(error) || status === undefined) return new BucketError('unreachable', detail, 'assume_role');
  return new BucketError('denied', detail, 'assume_role');
}
