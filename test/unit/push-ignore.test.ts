import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PushIgnore } from '../../bin/push-ignore.js';

/** `library push`'s ignore rules: .libraryignore files (nested, gitignore precedence) and --exclude. */
describe('push ignore rules', () => {
  const root = mkdtempSync(join(tmpdir(), 'library-push-ignore-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads gitignore syntax; a deeper file overrides one above; --exclude cannot be undone; an ignored folder keeps its content out', async () => {
    mkdirSync(join(root, 'logs', 'old'), { recursive: true });
    writeFileSync(join(root, '.libraryignore'), '# comments and blank lines are skipped\n\n*.log\n/top.txt\nbuild/\n');
    writeFileSync(join(root, 'logs', '.libraryignore'), '!keep.log\nold/\n');
    const rules = new PushIgnore(['drafts/', '*.tmp', '!keep.tmp', 'secret.md']);
    await rules.load(root, '');
    await rules.load(root, 'logs');
    await rules.load(root, 'no-such-folder'); // no ignore file: nothing to read

    const out = (path: string, isDir = false) => rules.ignores(path, isDir);
    expect(out('run.log')).toBe(true);
    expect(out('logs/run.log')).toBe(true);
    expect(out('logs/keep.log')).toBe(false); // the deeper file re-includes it
    expect(out('keep.log')).toBe(true); // ... only under its own folder
    expect(out('top.txt')).toBe(true);
    expect(out('notes/top.txt')).toBe(false); // anchored to the root
    expect(out('build', true)).toBe(true);
    expect(out('build')).toBe(false); // `build/` names folders only
    expect(out('build/out.txt')).toBe(true); // under an ignored folder
    expect(out('logs/old/keep.log')).toBe(true); // an ignored folder's content cannot be re-included
    expect(out('drafts/idea.md')).toBe(true);
    expect(out('a/b/c.tmp')).toBe(true);
    expect(out('keep.tmp')).toBe(false);
    expect(out('notes/secret.md')).toBe(true);
    expect(out('notes/plain.md')).toBe(false);
    expect(out('../outside.log')).toBe(false); // not a path under the folder: no rule speaks of it
  });

  it('lets --exclude leave out what a .libraryignore re-includes', async () => {
    const sub = join(root, 'strict');
    mkdirSync(sub);
    writeFileSync(join(sub, '.libraryignore'), '*.log\n!keep.log\n');
    const rules = new PushIgnore(['keep.log']);
    await rules.load(sub, '');
    expect(rules.ignores('keep.log', false)).toBe(true);
    expect(new PushIgnore().ignores('keep.log', false)).toBe(false);
  });
});
