import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from './sha256.js';

export interface PresignedGetObject {
  bucket: string;
  key: string;
  expiresInSeconds: number;
  /** Answered as the object's Content-Type (S3's response-content-type override). */
  contentType?: string;
  /** Answered as its Content-Disposition (response-content-disposition). */
  contentDisposition?: string;
}

/** The parts of the SDK's request (an HttpRequest of @smithy/protocol-http) this reads and signs. */
interface SdkRequest {
  method: string;
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  query: Record<string, string | string[] | null>;
  headers: Record<string, string>;
}

/** The parts of the SDK's handler context this reads: the signing region the endpoint chose. */
interface SdkContext {
  __smithy_context?: {
    selectedHttpAuthScheme?: { httpAuthOption?: { signingProperties?: { signingRegion?: unknown } } };
  };
}

/** Headers the SDK adds for its own bookkeeping: a URL a browser or curl follows sends none of them. */
const NOT_SENT = new Set([
  'amz-sdk-invocation-id',
  'amz-sdk-request',
  'x-amz-user-agent',
  'user-agent',
  'x-amz-checksum-mode',
  'x-amz-expected-bucket-owner',
  'content-length',
]);

/**
 * A presigned GET URL for an object (SigV4 query authentication), made by the
 * client's own request pipeline up to the signing step: the endpoint, the
 * addressing style (path-style for a custom endpoint), the key's encoding and
 * the signing region are the ones the client's own GetObject would use. The
 * request is then presigned instead of signed, as the SDK's presigner does
 * (payload UNSIGNED-PAYLOAD, only `host` signed), and never sent. The
 * credentials are the client's: the function's role for the service's
 * bucket, the customer's keys or role session for theirs (a URL made with a
 * session lives no longer than the session). No request is made, so nothing
 * says whether the object exists: a missing one answers 404 from S3.
 */
export async function presignGetObject(client: S3Client, object: PresignedGetObject): Promise<string> {
  const command = new GetObjectCommand({
    Bucket: object.bucket,
    Key: object.key,
    ResponseContentType: object.contentType,
    ResponseContentDisposition: object.contentDisposition,
  });
  let url: string | undefined;
  const stack = client.middlewareStack.clone();
  stack.addRelativeTo(
    (_next: unknown, context: SdkContext) => async (args: { request: unknown }) => {
      const request = args.request as SdkRequest;
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => !NOT_SENT.has(name.toLowerCase())),
      );
      headers.host = request.port ? `${request.hostname}:${request.port}` : request.hostname;
      headers['X-Amz-Content-Sha256'] = 'UNSIGNED-PAYLOAD';
      const chosen = context.__smithy_context?.selectedHttpAuthScheme?.httpAuthOption?.signingProperties?.signingRegion;
      const region = typeof chosen === 'string' && chosen ? chosen : await client.config.region();
      const signer = new SignatureV4({
        service: 's3',
        region,
        credentials: client.config.credentials,
        sha256: Sha256,
        uriEscapePath: false,
        applyChecksum: false,
      });
      const presigned = await signer.presign(
        { ...request, headers },
        { expiresIn: object.expiresInSeconds, unsignableHeaders: new Set(['content-type']) },
      );
      url = formatUrl(presigned as SdkRequest);
      return { response: {}, output: { $metadata: {} } };
    },
    { name: 'libraryPresignGetObject', relation: 'before', toMiddleware: 'awsAuthMiddleware', override: true },
  );
  await command.resolveMiddleware(stack as never, client.config, {})({ input: command.input });
  if (url === undefined) throw new Error('the S3 client did not reach its signing step');
  return url;
}

/** RFC 3986 unreserved characters stay; everything else is percent-encoded (SigV4's own encoding of query names and values). */
const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function formatUrl(request: SdkRequest): string {
  const port = request.port ? `:${request.port}` : '';
  const query = Object.entries(request.query ?? {})
    .flatMap(([name, value]) =>
      value === null ? [encode(name)] : [value].flat().map((v) => `${encode(name)}=${encode(v)}`),
    )
    .join('&');
  return `${request.protocol}//${request.hostname}${port}${request.path}${query ? `?${query}` : ''}`;
}
