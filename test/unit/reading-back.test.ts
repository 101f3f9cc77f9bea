import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filenameFromDisposition } from '../../client/src/content.js';
import { presignGetObject } from '../../lambdas/adapters/aws/s3-presign.js';
import { countLines, splitLines } from '../../lambdas/core/chunking.js';
import { attachmentDisposition, downloadName } from '../../lambdas/core/file-names.js';
import { LIMITS } from '../../lambdas/core/limits.js';
import { documentLines } from '../../lambdas/core/reading.js';
import { contentResponse } from '../../lambdas/http/endpoint.js';
import { startS3rver } from '../adapters/aws/local-aws.js';
import { presignedSignatureHolds } from '../support/sigv4-query.js';

const ID = 'file_01JD7ZQ8W3M4X9N2B5C6V7K8P1';
const named = (over: { filename?: string | null; title?: string }) => ({
  id: ID,
  filename: null,
  title: 'Untitled',
  ...over,
});

describe('the name a file is downloaded under', () => {
  it("is a captured file's own filename, less any path and control characters", () => {
    expect(downloadName(named({ filename: 'report.pdf' }))).toBe('report.pdf');
    expect(downloadName(named({ filename: 'notes/2026/plan v2.md' }))).toBe('plan v2.md');
    expect(downloadName(named({ filename: 'C:\\Users\\me\\résumé.docx' }))).toBe('résumé.docx');
    expect(downloadName(named({ filename: 'bad\r\nname\u0000.txt' }))).toBe('bad__name_.txt');
    // Nothing left after the path: the document's id.
    expect(downloadName(named({ filename: 'folder/' }))).toBe(ID);
  });

  it("is a text push's title made a file name, with .txt", () => {
    expect(downloadName(named({ title: 'Meeting notes' }))).toBe('Meeting notes.txt');
    expect(downloadName(named({ title: 'Q3: plan/budget <draft>?' }))).toBe('Q3_ plan_budget _draft__.txt');
    expect(downloadName(named({ title: '  many\t\tspaces\nand lines  ' }))).toBe('many spaces and lines.txt');
    expect(downloadName(named({ title: 'already.TXT' }))).toBe('already.TXT');
    expect(downloadName(named({ title: '...' }))).toBe(`${ID}.txt`);
    expect(downloadName(named({ title: 'é'.repeat(LIMITS.titleChars) }))).toBe(`${'é'.repeat(100)}.txt`);
    // Cut by characters, never inside a surrogate pair.
    expect(downloadName(named({ title: '🙂'.repeat(150) }))).toBe(`${'🙂'.repeat(100)}.txt`);
  });
});

describe('Content-Disposition (RFC 6266, RFC 8187)', () => {
  it('names a plain ASCII file with filename alone, and any other with an ASCII stand-in and filename*', () => {
    expect(attachmentDisposition('report.pdf')).toBe('attachment; filename="report.pdf"');
    expect(attachmentDisposition('résumé 2026.pdf')).toBe(
      `attachment; filename="r_sum_ 2026.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%202026.pdf`,
    );
    expect(attachmentDisposition('say "hi" \\ 100%.txt')).toBe(
      `attachment; filename="say _hi_ _ 100_.txt"; filename*=UTF-8''say%20%22hi%22%20%5C%20100%25.txt`,
    );
    expect(attachmentDisposition("it's (1)*.txt")).toBe(`attachment; filename="it's (1)*.txt"`);
    expect(attachmentDisposition('🙂.png')).toBe(`attachment; filename="_.png"; filename*=UTF-8''%F0%9F%99%82.png`);
  });

  it('writes filename* with RFC 8187 attr-chars and percent-encoded UTF-8 only', () => {
    const name = "ü'()*!#$&+-.^_`|~ \u00a0.txt";
    const value = attachmentDisposition(name).split("filename*=UTF-8''")[1]!;
    expect(value).toMatch(/^(?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-F]{2})+$/);
    expect(value).toBe('%C3%BC%27%28%29%2A!%23%24%26%2B-.%5E_%60%7C~%20%C2%A0.txt');
    expect(decodeURIComponent(value)).toBe(name);
  });

  it("is read back by the client's parser to the same name, for any name a document can have", () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }), (raw) => {
        const name = downloadName(named({ filename: raw }));
        expect(filenameFromDisposition(attachmentDisposition(name))).toBe(name);
      }),
      { numRuns: 500 },
    );
  });

  it('reads what other servers send: quoted, token, escaped quotes, filename* first, a malformed filename* falls back', () => {
    expect(filenameFromDisposition('attachment; filename=plain.txt')).toBe('plain.txt');
    expect(filenameFromDisposition('attachment; filename="a \\"quoted\\" name.txt"')).toBe('a "quoted" name.txt');
    expect(
      filenameFromDisposition(`attachment; filename*=UTF-8''%E2%82%AC%20rates.pdf; filename="EUR rates.pdf"`),
    ).toBe('€ rates.pdf');
    expect(filenameFromDisposition(`attachment; filename="semi;colon.txt"`)).toBe('semi;colon.txt');
    expect(filenameFromDisposition(`attachment; filename="ok.txt"; filename*=UTF-8''%E2%82`)).toBe('ok.txt');
    expect(filenameFromDisposition('inline')).toBeNull();
    expect(filenameFromDisposition(null)).toBeNull();
  });
});

describe("a document's lines", () => {
  it('are split as grep splits them, less the empty one after a final line break: as many as line_count counts', () => {
    expect(documentLines('a\r\nb\rc\nd\n')).toEqual(['a', 'b', 'c', 'd']);
    expect(documentLines('a\n\n')).toEqual(['a', '']);
    expect(documentLines('')).toEqual(['']);
    expect(documentLines('\n')).toEqual(['']);
    fc.assert(
      fc.property(
        fc
          .array(fc.constantFrom('x', 'yz', ' ', '\n', '\r', '\r\n', 'é'), { maxLength: 40 })
          .map((parts) => parts.join('')),
        (text) => {
          const lines = documentLines(text);
          expect(lines.length).toBe(countLines(text));
          // Line N (1-based) is grep's line N.
          expect(lines).toEqual(splitLines(text).slice(0, lines.length));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('a file answered inline (base64, isBase64Encoded)', () => {
  it("fits the largest file the service takes within Lambda's 6 MB response, base64 and all (AWS answers a redirect anyway)", () => {
    const largest = new Uint8Array(LIMITS.fileBytes).map((_, i) => (i * 7919) % 256);
    const result = contentResponse(200, largest, 'req_1', {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${'n'.repeat(255)}"`,
    });
    expect(result.isBase64Encoded).toBe(true);
    expect(Buffer.from(result.body, 'base64').equals(Buffer.from(largest))).toBe(true);
    // What a Lambda function returns is this JSON: a third larger than the bytes, still under 6 MB (6,291,456 bytes).
    const payload = Buffer.byteLength(JSON.stringify(result));
    expect(payload).toBeGreaterThan((LIMITS.fileBytes * 4) / 3);
    expect(payload).toBeLessThan(6 * 1024 * 1024);
  });

  it('sends text as text, not base64', () => {
    expect(contentResponse(200, 'é\n', 'req_1', { 'content-type': 'text/plain; charset=utf-8' })).toEqual({
      statusCode: 200,
      headers: { 'x-request-id': 'req_1', 'content-type': 'text/plain; charset=utf-8' },
      body: 'é\n',
      isBase64Encoded: false,
    });
  });
});

describe('a presigned S3 GET (adapters/aws/s3-presign.ts)', () => {
  let s3: Awaited<ReturnType<typeof startS3rver>>;
  beforeAll(async () => {
    s3 = await startS3rver();
    await s3.client.send(new CreateBucketCommand({ Bucket: 'blobs' }));
  });
  afterAll(() => s3?.close());

  it("checks the test's own SigV4 verifier on AWS's published example first", () => {
    const example =
      'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404';
    expect(presignedSignatureHolds(example, 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')).toBe(true);
    expect(presignedSignatureHolds(example, 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEZ')).toBe(false);
    expect(
      presignedSignatureHolds(example.replace('test.txt', 'test2.txt'), 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'),
    ).toBe(false);
  });

  it('is addressed as the client addresses S3 (virtual host; path style for a dotted bucket or a custom endpoint), signs only host, carries a session token', async () => {
    const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret/key+1', sessionToken: 'session token' };
    const aws = new S3Client({ region: 'eu-west-1', credentials });
    const url = new URL(
      await presignGetObject(aws, {
        bucket: 'library-blobs',
        key: 'blobs/ten_1/file_1',
        expiresInSeconds: 300,
        contentType: 'application/pdf',
        contentDisposition: 'attachment; filename="a.pdf"',
      }),
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://library-blobs.s3.eu-west-1.amazonaws.com/blobs/ten_1/file_1');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': expect.stringMatching(/^AKIDEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request$/),
      'X-Amz-Expires': '300',
      'X-Amz-SignedHeaders': 'host',
      'X-Amz-Security-Token': 'session token',
      'response-content-type': 'application/pdf',
      'response-content-disposition': 'attachment; filename="a.pdf"',
    });
    expect(presignedSignatureHolds(url.href, 'secret/key+1')).toBe(true);
    expect(presignedSignatureHolds(url.href, 'another')).toBe(false);
    const dotted = new URL(
      await presignGetObject(new S3Client({ region: 'us-east-1', credentials }), {
        bucket: 'my.dotted.bucket',
        key: 'k',
        expiresInSeconds: 60,
      }),
    );
    expect(`${dotted.origin}${dotted.pathname}`).toBe('https://s3.us-east-1.amazonaws.com/my.dotted.bucket/k');
    const r2 = new S3Client({
      region: 'auto',
      endpoint: 'https://acct.r2.cloudflarestorage.com',
      forcePathStyle: true,
      credentials,
    });
    const r2Url = await presignGetObject(r2, { bucket: 'b', key: 'library/shared/file_1', expiresInSeconds: 60 });
    expect(r2Url).toMatch(/^https:\/\/acct\.r2\.cloudflarestorage\.com\/b\/library\/shared\/file_1\?/);
    expect(new URL(r2Url).searchParams.get('X-Amz-Credential')).toMatch(/\/auto\/s3\/aws4_request$/);
    expect(presignedSignatureHolds(r2Url, 'secret/key+1')).toBe(true);
  });

  it('fetches the object from an S3 API with the headers asked for, whatever the key holds', async () => {
    const key = 'blobs/ten 1/file é+&?.pdf';
    await s3.client.send(
      new PutObjectCommand({
        Bucket: 'blobs',
        Key: key,
        Body: Buffer.from('%PDF-1.7 bytes'),
        ContentType: 'application/octet-stream',
      }),
    );
    const disposition = `attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`;
    const url = await presignGetObject(s3.client, {
      bucket: 'blobs',
      key,
      expiresInSeconds: 120,
      contentType: 'application/pdf',
      contentDisposition: disposition,
    });
    expect(presignedSignatureHolds(url, 'S3RVER')).toBe(true);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(disposition);
    expect(await res.text()).toBe('%PDF-1.7 bytes');
  });
});
