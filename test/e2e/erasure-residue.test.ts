import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

/**
 * "Permanently erases" holds for someone who copies the data folder: after
 * an erasure (and after a single document's deletion) the erased text
 * occurs nowhere in the folder's raw bytes: not in library.db's live or free
 * pages, not in the WAL or the shared-memory file, not as tokens in FTS5
 * segments, not in a blob.
 */
let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer({ embedder: new HashingEmbedder() });
  key = await server.newKey('residue');
});
afterAll(() => server.close());

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** Occurrences of the marker in every file of the data folder, read as raw bytes (also as UTF-16, and lowercased FTS tokens). */
function occurrences(dataDir: string, marker: string): Record<string, number> {
  const needles = [
    Buffer.from(marker, 'utf8'),
    Buffer.from(marker.toLowerCase(), 'utf8'),
    Buffer.from(marker, 'utf16le'),
  ];
  const found: Record<string, number> = {};
  for (const file of filesUnder(dataDir)) {
    const bytes = readFileSync(file);
    let count = 0;
    for (const needle of needles)
      for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) count += 1;
    if (count) found[file.slice(dataDir.length + 1)] = count;
  }
  return found;
}

const capture = (body: Record<string, unknown>) => server.api('/v1/capture', { key, body });

async function fill(endUser: string, marker: string) {
  // Enough text to spill into overflow pages and several FTS5 segments.
  const long = Array.from(
    { length: 400 },
    (_, i) => `line ${i} of the ${marker} notebook: ${marker}${i} quietly repeats ${marker}.`,
  ).join('\n');
  for (let i = 0; i < 6; i++) {
    expect(
      (
        await capture({
          text: `${marker} note ${i}: the ${marker} lives here.\n${i % 2 ? long : ''}`,
          end_user_id: endUser,
        })
      ).status,
    ).toBe(201);
  }
  const file = Buffer.from(`file about ${marker}\n${long}`).toString('base64');
  expect(
    (
      await capture({
        content_base64: file,
        filename: `${marker}.txt`,
        content_type: 'text/plain',
        end_user_id: endUser,
      })
    ).status,
  ).toBe(201);
  for (const question of [`what is the ${marker}?`, `tell me about ${marker} notebook`]) {
    expect((await server.api('/v1/chat', { key, body: { question, end_user_id: endUser } })).status).toBe(200);
  }
  await server.stack.settled();
}

describe('erased bytes', () => {
  it('an erased end user leaves no byte of its text in the data folder', async () => {
    // A neighbour whose text must stay (and stays findable).
    await capture({ text: 'neighbour note about keepsake kumquats', end_user_id: 'neighbour' });
    const marker = 'Zqxvmarkerjw';
    await fill('erased-user', marker);
    expect(Object.keys(occurrences(server.dataDir, marker)).length).toBeGreaterThan(0); // the scan does see it before

    const erased = await server.api('/v1/end-users/erased-user', { key, method: 'DELETE' });
    expect(erased.status).toBe(200);
    expect(erased.body.documents_deleted).toBe(7);

    const left = occurrences(server.dataDir, marker);
    console.log(
      'raw-file scan after the erasure:',
      JSON.stringify(left),
      'files scanned:',
      filesUnder(server.dataDir)
        .map((f) => f.slice(server.dataDir.length + 1))
        .join(', '),
    );
    expect(left).toEqual({});
    expect((await server.api('/v1/grep?pattern=kumquats&end_user_id=neighbour', { key })).body.results).toHaveLength(1);
  });

  it('a deleted document leaves no byte of its text in the data folder', async () => {
    const marker = 'Wyqpdocmarkerv';
    const long = Array.from({ length: 300 }, (_, i) => `row ${i}: ${marker} and ${marker}${i}`).join('\n');
    const kept = await capture({ text: 'a kept note about lasting lanterns', end_user_id: 'doc-user' });
    const gone = await capture({
      content_base64: Buffer.from(`${marker}\n${long}`).toString('base64'),
      filename: 'x.txt',
      content_type: 'text/plain',
      end_user_id: 'doc-user',
    });
    expect(gone.status).toBe(201);
    await server.stack.settled();
    expect(Object.keys(occurrences(server.dataDir, marker)).length).toBeGreaterThan(0);

    const deleted = await server.api(`/v1/documents/${gone.body.id}?end_user_id=doc-user`, { key, method: 'DELETE' });
    expect(deleted.status).toBe(200);
    const left = occurrences(server.dataDir, marker);
    console.log('raw-file scan after the deletion:', JSON.stringify(left));
    expect(left).toEqual({});
    expect((await server.api(`/v1/documents/${kept.body.id}?end_user_id=doc-user`, { key })).status).toBe(200);
  });
});
