import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushFolder, waitForIndexing } from '../../bin/push.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

let server: TestServer;
let key: string;
const folder = mkdtempSync(join(tmpdir(), 'library-push-'));

beforeAll(async () => {
  server = await startTestServer({ embedder: new HashingEmbedder() });
  key = await server.newKey('pusher');
  mkdirSync(join(folder, 'notes', 'deep'), { recursive: true });
  mkdirSync(join(folder, '.git'));
  writeFileSync(join(folder, 'readme.md'), '# Project\nThe harbour opens at dawn.\n');
  writeFileSync(join(folder, 'notes', 'a.txt'), 'alpha note\n');
  writeFileSync(join(folder, 'notes', 'deep', 'b.csv'), 'k,v\nx,1\n');
  writeFileSync(join(folder, 'notes', 'copy-of-a.txt'), 'alpha note\n');
  writeFileSync(join(folder, 'blank.txt'), '   \n');
  writeFileSync(join(folder, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  for (let i = 0; i < 25; i++) writeFileSync(join(folder, 'notes', `n${i}.txt`), `note number ${i}\n`);
});
afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('library push', () => {
  it('captures every file of a folder in batches, with relative paths as source_ref, skipping hidden files', async () => {
    const lines: string[] = [];
    const summary = await pushFolder({ folder, url: server.url, apiKey: key, endUserId: 'pusher-user' }, (l) => lines.push(l));
    expect(summary).toMatchObject({ files: 30, created: 28, deduped: 1 });
    expect(summary.rejected).toEqual([{ path: 'blank.txt', code: 'empty_content', detail: expect.any(String) }]);
    expect(lines).toHaveLength(30);
    const grep = await server.api('/v1/grep?pattern=harbour&end_user_id=pusher-user', { key });
    expect(grep.body.results).toEqual([expect.objectContaining({ source_ref: 'readme.md', line: 2, title: 'readme.md' })]);
    const csv = await server.api(`/v1/documents?end_user_id=pusher-user&source_ref=${encodeURIComponent(join('notes', 'deep', 'b.csv'))}`, { key });
    expect(csv.body.documents).toEqual([expect.objectContaining({ content_type: 'text/csv', filename: 'b.csv' })]);
    // --wait follows every pushed document until it is indexed.
    const progress: string[] = [];
    const indexed = await waitForIndexing({ url: server.url, apiKey: key, endUserId: 'pusher-user' }, summary.ids, (l) => progress.push(l), 20);
    expect(indexed).toEqual({ ready: 28, failed: [] });
    expect(progress.at(-1)).toMatch(/^indexing: 28 ready, 0 failed, 0 processing/);
    const docs = await server.api('/v1/documents?end_user_id=pusher-user&limit=100', { key });
    expect(docs.body.documents.every((d: { status: string }) => d.status === 'ready')).toBe(true);
    // Pushing again changes nothing.
    const again = await pushFolder({ folder, url: server.url, apiKey: key, endUserId: 'pusher-user' }, () => undefined);
    expect(again.created).toBe(0);
    expect(again.deduped).toBe(29);
  });

  it('stops with a clear error on a bad key', async () => {
    await expect(pushFolder({ folder, url: server.url, apiKey: 'lib_bad' }, () => undefined)).rejects.toThrow(/401/);
  });
});
