import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';

type SourceData = string | ArrayBuffer | ArrayBufferView;
const toBuffer = (data: SourceData) =>
  typeof data === 'string'
    ? Buffer.from(data, 'utf8')
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

/**
 * SHA-256 and HMAC-SHA-256 on node:crypto, for the SDK's SigV4 signer where
 * the service signs requests itself: the OpenSearch transport
 * (opensearch-transport.ts), which has no AWS SDK client.
 */
export class Sha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', toBuffer(secret));
  }
  update(data: SourceData): void {
    this.hash.update(toBuffer(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}
