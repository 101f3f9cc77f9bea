import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PushEvent, pushFolder, runPushCommand, waitForIndexing } from '../../bin/push.js';
import { HashingEmbedder } from '../support/hashing-embedder.js';
import { startTestServer, type TestServer } from '../support/local-server.js';

let server: TestServer;
let key: string;
const root = mkdtempSync(join(tmpdir(), 'library-push-'));
const folder = join(root, 'notes-folder');

/** Captures what the command prints; not a terminal, so progress is a plain line per file. */
function output() {
  const text = { stdout: '', stderr: '' };
  const stream = (name: 'stdout' | 'stderr') =>
    ({ isTTY: false, write: (s: string) => ((text[name] += s), true) }) as unknown as NodeJS.WriteStream;
  return { text, out: { stdout: stream('stdout'), stderr: stream('stderr') } };
}
const run = async (args: string[]) => {
  const { text, out } = output();
  const code = await runPushCommand(args, { version: '9.9.9', defaultUrl: 'http://127.0.0.1:9', env: {}, out });
  return { code, ...text };
};

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
  writeFileSync(join(folder, 'huge.txt'), Buffer.alloc(5 * 1024 * 1024, 'a')); // over the 4 MiB per-item limit
  writeFileSync(join(folder, 'blob.bin'), randomBytes(2048)); // no text can be extracted
  writeFileSync(join(folder, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  for (let i = 0; i < 25; i++) writeFileSync(join(folder, 'notes', `n${i}.txt`), `note number ${i}\n`);
});
afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('library push', () => {
  it('syncs a folder: nested files, a too-large file, an unsupported file, an edit, a deletion with --prune', async () => {
    const events: PushEvent[] = [];
    const target = { folder, url: `${server.url}/v1/`, apiKey: key, endUserId: 'pusher-user' };
    const summary = await pushFolder({ ...target, concurrency: 3 }, { file: (e) => events.push(e) });
    expect(summary).toMatchObject({ files: 32, created: 28, deduped: 1, unchanged: 0, failed: [] });
    expect(events).toHaveLength(32);
    const rejected = Object.fromEntries(summary.rejected.map((r) => [r.path, r.code]));
    expect(rejected['blank.txt']).toBe('empty_content');
    expect(rejected['huge.txt']).toBe('too_large');
    const grep = await server.api('/v1/grep?pattern=harbour&end_user_id=pusher-user', { key });
    expect(grep.body.results).toEqual([
      expect.objectContaining({ source_ref: 'readme.md', line: 2, title: 'readme.md' }),
    ]);
    const csv = await server.api(
      `/v1/documents?end_user_id=pusher-user&source_ref=${encodeURIComponent('notes/deep/b.csv')}`,
      { key },
    );
    expect(csv.body.documents).toEqual([expect.objectContaining({ content_type: 'text/csv', filename: 'b.csv' })]);

    // --wait follows every pushed document until it is indexed; the unsupported file ends failed (or was rejected).
    const progress: string[] = [];
    const indexed = await waitForIndexing(target, summary.ids, (l) => progress.push(l), 20);
    const unsupported = rejected['blob.bin'] === 'unsupported_type' ? 0 : 1;
    expect(indexed.ready).toBe(28 - unsupported);
    expect(indexed.failed).toHaveLength(unsupported);
    expect(progress.at(-1)).toMatch(/processing \(/);

    // Pushing again sends nothing that is already there.
    const again = await pushFolder(target, {});
    expect(again.unchanged).toBe(28 - unsupported);
    expect(again.created).toBe(0);

    // An edit and a deletion: --dry-run says what would change and changes nothing.
    writeFileSync(join(folder, 'notes', 'a.txt'), 'alpha note, edited: the tide turns at six\n');
    unlinkSync(join(folder, 'notes', 'n0.txt'));
    const dry = await run([
      folder,
      '--key',
      key,
      '--url',
      server.url,
      '--end-user',
      'pusher-user',
      '--prune',
      '--dry-run',
      '--json',
    ]);
    const drySummary = JSON.parse(dry.stdout);
    expect(drySummary).toMatchObject({
      dry_run: true,
      replaced: 1,
      pruned: [{ source_ref: 'notes/n0.txt', id: expect.any(String) }],
    });
    const before = await server.api('/v1/documents?end_user_id=pusher-user&source_ref=notes%2Fn0.txt', { key });
    expect(before.body.documents).toHaveLength(1);

    const lines: string[] = [];
    const sync = await pushFolder({ ...target, prune: true }, { file: (e) => lines.push(`${e.outcome} ${e.path}`) });
    expect(sync).toMatchObject({ replaced: 1, pruned: [{ source_ref: 'notes/n0.txt' }], prune_failed: [] });
    expect(lines).toContain('replaced notes/a.txt');
    const edited = await server.api('/v1/documents?end_user_id=pusher-user&source_ref=notes%2Fa.txt', { key });
    expect(edited.body.documents).toHaveLength(1); // the old version is gone, not beside the new one
    const old = await server.api('/v1/grep?pattern=alpha%20note%0A&end_user_id=pusher-user', { key });
    expect((old.body.results ?? []).filter((r: { source_ref: string }) => r.source_ref === 'notes/a.txt')).toHaveLength(
      0,
    );
    const tide = await server.api('/v1/grep?pattern=tide%20turns&end_user_id=pusher-user', { key });
    expect(tide.body.results).toEqual([expect.objectContaining({ source_ref: 'notes/a.txt' })]);
    const pruned = await server.api('/v1/documents?end_user_id=pusher-user&source_ref=notes%2Fn0.txt', { key });
    expect(pruned.body.documents).toEqual([]);
    // copy-of-a.txt still dedups onto a document of the library: --prune never removes a document a file uses.
    const copy = await server.api('/v1/grep?pattern=alpha%20note&end_user_id=pusher-user', { key });
    expect(copy.body.results.length).toBeGreaterThan(0);
  });

  it('waits out a low rate limit instead of stopping', async () => {
    const limited = await startTestServer({
      embedder: new HashingEmbedder(),
      rateLimit: { ratePerSecond: 3, burst: 2 },
    });
    try {
      const waits: string[] = [];
      const summary = await pushFolder(
        {
          folder: join(folder, 'notes'),
          url: limited.url,
          apiKey: await limited.newKey('limited'),
          concurrency: 4,
          retryBaseMs: 50,
        },
        { retry: (r) => waits.push(r.reason) },
      );
      expect(summary.failed).toEqual([]);
      expect(summary.created + summary.deduped).toBe(summary.files);
      expect(waits).toContain('429 rate_limited');
    } finally {
      await limited.close();
    }
  });

  it('reports the batches a stopped server never answered, goes on, and exits non-zero', async () => {
    const doomed = await startTestServer({ embedder: new HashingEmbedder() });
    const doomedKey = await doomed.newKey('doomed');
    let batches = 0;
    const closing: Array<Promise<void>> = [];
    const fetchThenStop: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(input).endsWith('/v1/capture/batch') && ++batches === 1) closing.push(doomed.close());
      return response;
    };
    const summary = await pushFolder(
      {
        folder: join(folder, 'notes'),
        url: doomed.url,
        apiKey: doomedKey,
        concurrency: 1,
        retries: 1,
        retryBaseMs: 5,
        fetch: fetchThenStop,
      },
      {},
    );
    await Promise.all(closing);
    expect(summary.created).toBe(20); // the first batch
    expect(summary.failed.length).toBe(summary.files - 20);
    expect(summary.failed[0]!.error).toContain(`${doomed.url}/v1/capture/batch`);
    expect(summary.failed[0]!.error).toMatch(/ECONNREFUSED|ECONNRESET|socket/);
  });

  it('has a proper command line: --help and --version exit 0, --json, exit 1 on rejections, a connection failure named', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    for (const option of [
      '--dry-run',
      '--json',
      '--concurrency',
      '--prune',
      '--wait',
      '--version',
      '--url',
      '--metadata',
      'front matter',
      '--exclude',
      '.libraryignore',
      '--prune-ignored',
    ])
      expect(help.stdout).toContain(option);
    const version = await run(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: '9.9.9\n' });
    expect((await run([folder, '--no-such-option'])).code).toBe(2);
    expect((await run([folder])).code).toBe(2); // no key

    const json = await run([folder, '--key', key, '--url', `${server.url}/v1`, '--end-user', 'pusher-user', '--json']);
    expect(json.code).toBe(1); // blank.txt and huge.txt are rejected
    const summary = JSON.parse(json.stdout);
    expect(summary).toMatchObject({ files: 31, created: 0, failed: [], dry_run: false });
    expect(summary.rejected.map((r: { path: string }) => r.path)).toEqual(
      expect.arrayContaining(['blank.txt', 'huge.txt']),
    );

    // A subfolder with --prefix names the same documents as the whole folder did.
    const plain = await run([
      join(folder, 'notes', 'deep'),
      '--prefix',
      'notes/deep/',
      '--key',
      key,
      '--url',
      server.url,
      '--end-user',
      'pusher-user',
    ]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^unchanged +notes\/deep\/b\.csv$/m);
    expect(plain.stdout).toMatch(
      /1 files: 0 created, 0 replaced, 0 deduped, 0 metadata updated, 1 unchanged, 0 rejected, 0 failed/,
    );

    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const down = await run([folder, '--key', key, '--url', `http://127.0.0.1:${port}/prod/v1/`, '--retries', '0']);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`http://127.0.0.1:${port}/prod/v1/documents`);
    expect(down.stderr).toMatch(/ECONNREFUSED/);
  });

  it('stops with a clear error on a bad key', async () => {
    await expect(pushFolder({ folder, url: server.url, apiKey: 'lib_bad' })).rejects.toMatchObject({
      status: 401,
      code: 'unauthorized',
    });
  });
});

describe('library push: metadata from --metadata and front matter', () => {
  const user = 'meta-user';
  const meta = join(root, 'meta-folder');
  const body = '# Harbour\nThe ferry to the lighthouse leaves at dawn.\n';
  const frontMatter = (lines: string[]) => `---\n${lines.join('\n')}\n---\n`;
  const docsAt = async (sourceRef: string) =>
    (await server.api(`/v1/documents?end_user_id=${user}&source_ref=${encodeURIComponent(sourceRef)}`, { key })).body
      .documents as Array<{
      id: string;
      sha256: string;
      metadata: Record<string, unknown>;
      created_at: string;
      passages_embedded: number;
    }>;
  const filtered = async (route: string, filter: object) =>
    (
      await server.api(
        `${route}${route.includes('?') ? '&' : '?'}end_user_id=${user}&filter=${encodeURIComponent(JSON.stringify(filter))}`,
        { key },
      )
    ).body;
  const push = (...extra: string[]) =>
    run([meta, '--key', key, '--url', server.url, '--end-user', user, '--json', ...extra]);
  const flags = [
    '--metadata',
    'project=apollo',
    '--metadata',
    'year=2024',
    '--metadata',
    'draft=false',
    '--metadata',
    'zip=007',
    '--metadata',
    'ratio=-1.5',
    '--metadata',
    'project=artemis',
  ];

  beforeAll(() => {
    mkdirSync(meta, { recursive: true });
    writeFileSync(join(meta, 'plain.txt'), 'A plain note about the harbour crane.\n');
    writeFileSync(
      join(meta, 'post.md'),
      frontMatter([
        'title: Harbour post',
        'year: 2025',
        'tags: [travel, 2026]',
        'published: 2026-01-15',
        'nested: {a: 1}',
        'empty:',
        '"bad key": x',
      ]) + body,
    );
    writeFileSync(join(meta, 'broken.md'), '---\ntitle: [unclosed\n---\nBroken front matter stays in the text.\n');
    writeFileSync(join(meta, 'rule.markdown'), '---\nJust a rule, then prose.\n---\nMore prose about tides.\n');
  });

  it('applies --metadata pairs (numbers, booleans, strings) to every file and front matter over them; the text is the body', async () => {
    const first = await push(...flags);
    expect(first.code).toBe(0);
    const summary = JSON.parse(first.stdout);
    expect(summary).toMatchObject({ files: 4, created: 4, metadata_updated: 0, rejected: [], failed: [] });
    const details = summary.warnings.map((w: { path: string; detail: string }) => `${w.path}: ${w.detail}`).join('\n');
    expect(details).toMatch(/post\.md: front matter key nested left out: a nested mapping/);
    expect(details).toMatch(/post\.md: front matter key empty left out: no value/);
    expect(details).toMatch(/post\.md: front matter key "bad key" left out/);
    expect(details).toMatch(/broken\.md: its front matter is not valid YAML/);
    expect(details).toMatch(/rule\.markdown: its front matter is not a mapping/);

    const flagged = { project: 'artemis', year: 2024, draft: false, zip: '007', ratio: -1.5 };
    expect((await docsAt('plain.txt'))[0]!.metadata).toEqual(flagged);
    const [post] = await docsAt('post.md');
    expect(post!.metadata).toEqual({
      ...flagged,
      title: 'Harbour post',
      year: 2025,
      tags: ['travel', '2026'],
      published: '2026-01-15',
    });
    // The front matter is not in the text: the document is the body, byte for byte.
    expect(post!.sha256).toBe(createHash('sha256').update(body).digest('hex'));
    const content = (await server.api(`/v1/documents/${post!.id}/content?end_user_id=${user}`, { key })).body;
    expect(content.lines.slice(0, 2)).toEqual(['# Harbour', 'The ferry to the lighthouse leaves at dawn.']);
    // Front matter that is not YAML (or not a mapping) stays in the text; the file gets the --metadata pairs.
    const [broken] = await docsAt('broken.md');
    expect(broken!.metadata).toEqual(flagged);
    const unclosed = (await server.api(`/v1/grep?pattern=unclosed&end_user_id=${user}`, { key })).body.results;
    expect(unclosed.map((r: { source_ref: string }) => r.source_ref)).toEqual(['broken.md']);

    // Filters find them by the new values.
    const listed = await filtered('/v1/documents', { 'metadata.tags': 'travel', 'metadata.year': { gte: 2025 } });
    expect(listed.documents.map((d: { source_ref: string }) => d.source_ref)).toEqual(['post.md']);

    // Nothing changed: nothing is sent, nothing patched.
    const again = JSON.parse((await push(...flags)).stdout);
    expect(again).toMatchObject({ unchanged: 4, created: 0, replaced: 0, metadata_updated: 0 });
  });

  it('PATCHes the metadata of a file whose front matter alone changed: same document, nothing embedded again; --dry-run says so first', async () => {
    await server.stack.settled();
    const [before] = await docsAt('post.md');
    writeFileSync(
      join(meta, 'post.md'),
      frontMatter(['title: Harbour post', 'year: 2026', 'status: final', 'published: 2026-01-15']) + body,
    );

    const dry = await push(...flags, '--dry-run');
    expect(JSON.parse(dry.stdout)).toMatchObject({
      dry_run: true,
      metadata_updated: 1,
      replaced: 0,
      created: 0,
      unchanged: 3,
    });
    expect((await docsAt('post.md'))[0]!.metadata).toEqual(before!.metadata);
    const dryLines = await run([meta, '--key', key, '--url', server.url, '--end-user', user, '--dry-run', ...flags]);
    expect(dryLines.stdout).toMatch(/^would_update_metadata post\.md \(year, status, tags\)$/m);
    expect(dryLines.stdout).toMatch(/^ {2}warning {2}broken\.md: its front matter is not valid YAML/m);
    expect(dryLines.stdout).toMatch(
      /dry run: 4 files: 0 to create, 0 to replace, 0 deduped, 1 to update metadata, 3 unchanged/,
    );

    const real = await push(...flags);
    expect(real.code).toBe(0);
    expect(JSON.parse(real.stdout)).toMatchObject({ metadata_updated: 1, replaced: 0, created: 0, unchanged: 3 });
    const after = await docsAt('post.md');
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      id: before!.id,
      sha256: before!.sha256,
      created_at: before!.created_at,
      passages_embedded: before!.passages_embedded,
    });
    expect(after[0]!.metadata).toEqual({
      project: 'artemis',
      year: 2026,
      draft: false,
      zip: '007',
      ratio: -1.5,
      title: 'Harbour post',
      status: 'final',
      published: '2026-01-15',
    });

    // Search, grep and the list find it by the new value at once, and no longer by the removed one.
    const found = await filtered('/v1/search?q=ferry%20lighthouse', { 'metadata.status': 'final' });
    expect(found.results.map((r: { id: string }) => r.id)).toEqual([before!.id]);
    const listed = await filtered('/v1/documents', { 'metadata.status': { in: ['final', 'review'] } });
    expect(listed.documents.map((d: { id: string }) => d.id)).toEqual([before!.id]);
    expect((await filtered('/v1/documents', { 'metadata.tags': 'travel' })).documents).toEqual([]);
    expect(
      (await filtered('/v1/grep?pattern=ferry', { 'metadata.year': 2026 })).results.map(
        (r: { file_id: string }) => r.file_id,
      ),
    ).toEqual([before!.id]);

    // A run without the pairs removes them from every document (the metadata is what the run computes).
    const bare = JSON.parse((await push()).stdout);
    expect(bare).toMatchObject({ metadata_updated: 4, created: 0, replaced: 0 });
    expect((await docsAt('plain.txt'))[0]!.metadata).toEqual({});
    expect((await docsAt('post.md'))[0]!.metadata).toEqual({
      title: 'Harbour post',
      year: 2026,
      status: 'final',
      published: '2026-01-15',
    });
  });

  it('captures an edit of the body again (replacing the document), with its metadata', async () => {
    const [before] = await docsAt('post.md');
    writeFileSync(join(meta, 'post.md'), `${frontMatter(['year: 2027'])}# Harbour\nThe ferry now leaves at noon.\n`);
    const summary = JSON.parse((await push()).stdout);
    expect(summary).toMatchObject({ replaced: 1, metadata_updated: 0 });
    const after = await docsAt('post.md');
    expect(after).toHaveLength(1);
    expect(after[0]!.id).not.toBe(before!.id);
    expect(after[0]!.metadata).toEqual({ year: 2027 });
  });

  it('refuses a --metadata key the rules refuse, or a pair without =, as a usage error', async () => {
    expect((await run([meta, '--key', key, '--metadata', 'bad key=1'])).code).toBe(2);
    const noValue = await run([meta, '--key', key, '--metadata', 'project']);
    expect(noValue.code).toBe(2);
    expect(noValue.stderr).toMatch(/expected key=value/);
  });
});

describe('library push: leaving files out (.libraryignore, --exclude) and a dry run that predicts rejects', () => {
  const user = 'ignore-user';
  const docsOf = async (endUser: string) =>
    (
      (await server.api(`/v1/documents?end_user_id=${endUser}&limit=100`, { key })).body.documents as Array<{
        source_ref: string;
        id: string;
      }>
    )
      .map((d) => d.source_ref)
      .sort();

  it('keeps ignored and excluded files out, so a second run sends nothing and exits 0; a document pushed before and now ignored stays unless --prune-ignored', async () => {
    const dir = join(root, 'ignore-folder');
    mkdirSync(join(dir, 'logs', 'old'), { recursive: true });
    mkdirSync(join(dir, 'drafts'));
    writeFileSync(join(dir, 'keep.md'), '# Keep\nThe lock keeper logs every barge.\n');
    writeFileSync(join(dir, 'old.txt'), 'an old note about the weir\n');
    writeFileSync(join(dir, 'empty.txt'), ''); // the service rejects an empty file: every run would send it again and exit 1
    writeFileSync(join(dir, 'archive.gz'), gzipSync('no text can be read from an archive'));
    writeFileSync(join(dir, 'scratch.tmp'), 'scratch\n');
    writeFileSync(join(dir, 'logs', 'run.log'), 'a log line\n');
    writeFileSync(join(dir, 'logs', 'keep.log'), 'a log worth keeping\n');
    writeFileSync(join(dir, 'logs', 'old', 'keep.log'), 'under an ignored folder\n');
    writeFileSync(join(dir, 'drafts', 'idea.txt'), 'half an idea\n');
    writeFileSync(join(dir, '.libraryignore'), 'empty.txt\n*.gz\n');
    writeFileSync(join(dir, 'logs', '.libraryignore'), '*.log\n!keep.log\nold/\n'); // nested: relative to logs/
    const push = (...extra: string[]) =>
      run([
        dir,
        '--key',
        key,
        '--url',
        server.url,
        '--end-user',
        user,
        '--exclude',
        'drafts/',
        '--exclude',
        '*.tmp',
        ...extra,
      ]);

    const first = await push('--json');
    expect(first.code).toBe(0);
    // Left out: empty.txt, archive.gz, scratch.tmp, drafts/ (a folder counts once), logs/run.log, logs/old/.
    expect(JSON.parse(first.stdout)).toMatchObject({
      files: 3,
      created: 3,
      rejected: [],
      failed: [],
      ignored: 6,
      ignored_in_library: [],
    });
    expect(await docsOf(user)).toEqual(['keep.md', 'logs/keep.log', 'old.txt']);

    // Nothing is sent again: no capture request at all, and a clean exit.
    const captures: string[] = [];
    const counting: typeof fetch = async (input, init) => {
      if (String(input).includes('/capture')) captures.push(String(input));
      return fetch(input, init);
    };
    const again = await pushFolder({
      folder: dir,
      url: server.url,
      apiKey: key,
      endUserId: user,
      exclude: ['drafts/', '*.tmp'],
      fetch: counting,
    });
    expect(again).toMatchObject({ files: 3, unchanged: 3, created: 0, replaced: 0, rejected: [], failed: [] });
    expect(captures).toEqual([]);
    const second = await push();
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(
      /3 files: 0 created, 0 replaced, 0 deduped, 0 metadata updated, 3 unchanged, 0 rejected, 0 failed; 0 pruned; 6 ignored/,
    );

    // A file pushed earlier, now ignored: not sent, not pruned (a rule to stop sending is not an order to delete).
    writeFileSync(join(dir, '.libraryignore'), 'empty.txt\n*.gz\nold.txt\n');
    const kept = await push('--prune', '--json');
    expect(kept.code).toBe(0);
    expect(JSON.parse(kept.stdout)).toMatchObject({
      files: 2,
      unchanged: 2,
      pruned: [],
      ignored: 7,
      ignored_in_library: [{ source_ref: 'old.txt', id: expect.any(String) }],
    });
    expect(await docsOf(user)).toEqual(['keep.md', 'logs/keep.log', 'old.txt']);
    expect((await push('--prune')).stdout).toMatch(
      /^ {2}1 document of ignored files left in the library \(--prune-ignored deletes them\)$/m,
    );

    // --prune-ignored deletes it (--dry-run first says so and deletes nothing).
    const dry = await push('--prune-ignored', '--dry-run', '--json');
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      dry_run: true,
      pruned: [{ source_ref: 'old.txt' }],
      ignored_in_library: [],
    });
    expect(await docsOf(user)).toContain('old.txt');
    const pruned = await push('--prune-ignored', '--json');
    expect(pruned.code).toBe(0);
    expect(JSON.parse(pruned.stdout)).toMatchObject({ pruned: [{ source_ref: 'old.txt' }], prune_failed: [] });
    expect(await docsOf(user)).toEqual(['keep.md', 'logs/keep.log']);
  });

  it('--dry-run predicts the rejects of the real run (an unsupported type, an oversize file, an empty one) and exits as it does', async () => {
    const dir = join(root, 'dry-folder');
    const dryUser = 'dry-user';
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'fine.txt'), 'a note the library takes\n');
    writeFileSync(join(dir, 'archive.gz'), gzipSync('an archive: unsupported_type'));
    writeFileSync(join(dir, 'control.dat'), Buffer.alloc(2048, 1)); // no magic number, and not text either
    writeFileSync(join(dir, 'huge.txt'), Buffer.alloc(5 * 1024 * 1024, 'a')); // over the 4 MiB per-item limit
    writeFileSync(join(dir, 'empty.txt'), '');
    writeFileSync(join(dir, 'broken.json'), '{"unclosed": ');
    const push = (...extra: string[]) => run([dir, '--key', key, '--url', server.url, '--end-user', dryUser, ...extra]);
    const byPath = (summary: { rejected: Array<{ path: string; code: string }> }) =>
      Object.fromEntries(summary.rejected.map((r) => [r.path, r.code]));
    const expected = {
      'archive.gz': 'unsupported_type',
      'control.dat': 'unsupported_type',
      'huge.txt': 'too_large',
      'empty.txt': 'empty_content',
      'broken.json': 'extraction_failed',
    };

    const dry = await push('--dry-run', '--json');
    const drySummary = JSON.parse(dry.stdout);
    expect(byPath(drySummary)).toEqual(expected);
    expect(drySummary).toMatchObject({ dry_run: true, files: 6, created: 1 });
    expect(await docsOf(dryUser)).toEqual([]); // nothing sent
    const dryLines = await push('--dry-run');
    expect(dryLines.stdout).toMatch(
      /^would_reject +archive\.gz \(unsupported_type: no text can be extracted from an archive \(gz\)\)$/m,
    );
    expect(dryLines.stdout).toMatch(/dry run: 6 files: 1 to create, .* 5 to reject, 0 failed/);

    const real = await push('--json');
    const realSummary = JSON.parse(real.stdout);
    expect(byPath(realSummary)).toEqual(expected);
    expect(realSummary).toMatchObject({ dry_run: false, files: 6, created: 1 });
    expect(real.code).toBe(1);
    expect(dry.code).toBe(real.code);
    expect(dryLines.code).toBe(real.code);
    // The details are the service's own words.
    for (const r of realSummary.rejected as Array<{ path: string; detail: string }>) {
      expect(drySummary.rejected.find((d: { path: string }) => d.path === r.path).detail).toBe(r.detail);
    }

    // With rules for the refused files, both runs exit 0.
    const clean = [
      '--exclude',
      '*.gz',
      '--exclude',
      '*.dat',
      '--exclude',
      'huge.txt',
      '--exclude',
      'empty.txt',
      '--exclude',
      'broken.json',
    ];
    expect((await push('--dry-run', ...clean)).code).toBe(0);
    expect((await push(...clean)).code).toBe(0);
  });
});
