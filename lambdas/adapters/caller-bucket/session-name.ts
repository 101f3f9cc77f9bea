/**
 * STS session names, in one place: the adapters name sessions with them and
 * the CDK stack allows no other on customers' roles. Pure data, no SDK.
 */

/** How every session on a customer's role is named (lib/constructs/caller-bucket-access.ts allows only these). */
export const TENANT_SESSION_PREFIX = 'library-';

/** STS's allowed RoleSessionName characters are `[\w+=,.@-]`, 2 to 64 of them. */
export function roleSessionName(name: string): string {
  const cleaned = name.replace(/[^\w+=,.@-]/g, '-').slice(0, 64);
  return cleaned.length >= 2 ? cleaned : `${cleaned}--`.slice(0, 2);
}

/** The session name the customer reads in CloudTrail: the tenant it is for. */
export const tenantSessionName = (tenantId: string) => roleSessionName(`${TENANT_SESSION_PREFIX}${tenantId}`);
