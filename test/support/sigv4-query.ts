import { createHash, createHmac } from 'node:crypto';

/**
 * Checks a SigV4 presigned URL (query authentication, S3's flavour: the path
 * as sent, not encoded again; the payload UNSIGNED-PAYLOAD) against a secret,
 * written from AWS's description of query-string signing, independently of
 * the SDK's signer. s3rver does not check v4 signatures; tests of presigned
 * URLs check them with this (itself checked on AWS's published example).
 */
export function presignedSignatureHolds(url: string, secret: string, method = 'GET'): boolean {
  const question = url.indexOf('?');
  const pathStart = url.indexOf('/', url.indexOf('//') + 2);
  const path = url.slice(pathStart, question < 0 ? undefined : question);
  const host = new URL(url).host;
  const params = [...new URL(url).searchParams];
  const value = (name: string) => params.find(([n]) => n === name)?.[1] ?? '';
  const signature = value('X-Amz-Signature');
  const [, ...scopeParts] = value('X-Amz-Credential').split('/');
  const scope = scopeParts.join('/');
  const signed = value('X-Amz-SignedHeaders').split(';');
  const query = params
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, v]) => [encode(name), encode(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, v]) => `${name}=${v}`)
    .join('&');
  const headers = signed.map((name) => `${name}:${name === 'host' ? host : ''}\n`).join('');
  const canonical = [method, path, query, headers, signed.join(';'), 'UNSIGNED-PAYLOAD'].join('\n');
  const toSign = ['AWS4-HMAC-SHA256', value('X-Amz-Date'), scope, sha256(canonical)].join('\n');
  const [date, region, service] = scope.split('/') as [string, string, string];
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  return hmac(key, toSign).toString('hex') === signature;
}

const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();
