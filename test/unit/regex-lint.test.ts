import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The project's own lint config (eslint.config.js, run by `npm test` as `npm run lint:regex`):
// these tests fail if a rule about super-linear patterns is dropped from it or loosened.
const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root, overrideConfigFile: 'eslint.config.js', cache: false });

async function lint(source: string) {
  const [result] = await eslint.lintText(source, { filePath: 'lambdas/adapters/extraction/example.ts' });
  expect(result!.fatalErrorCount).toBe(0);
  return result!.messages;
}
const rulesFiring = async (source: string) =>
  [...new Set((await lint(source)).map((m) => m.ruleId ?? m.message))].sort();

describe('the regex lint', () => {
  it('rejects the HTML pattern that once stalled the server for 24 s, and passes a linear one', async () => {
    const old = String.raw`export const HTML = /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i;`;
    const reported = (await lint(old)).filter((m) => m.ruleId === 'library/no-exponential-backtracking');
    expect(reported).toHaveLength(1);
    // The message names the repeated word that can be read in two ways: comments.
    expect(reported[0]!.message).toContain('<!---->');
    expect(
      await rulesFiring(String.raw`export const TAG = /<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/iy;`),
    ).toEqual([]);
  });

  it('rejects a repetition that reads a word of several characters in two ways, literal or new RegExp(string)', async () => {
    expect(await rulesFiring(String.raw`export const bad = /^(?:a.*?b)*c$/s;`)).toContain(
      'library/no-exponential-backtracking',
    );
    expect(
      await rulesFiring(String.raw`const BODY = '(?:ab|a)'; export const bad = new RegExp('^(?:' + BODY + '|b)*c$');`),
    ).toContain('library/no-exponential-backtracking');
    // Unambiguous: each repetition is told apart by its first character, or only the last may end the text.
    expect(await rulesFiring(String.raw`export const ok = /^(?:ab|cd)*e$/;`)).toEqual([]);
    expect(await rulesFiring(String.raw`export const ok = /^(?:x;|x[ \t]*$)*$/;`)).toEqual([]);
  });

  it('rejects nested quantifiers over one character, in a literal and in new RegExp(string)', async () => {
    expect(await rulesFiring(String.raw`export const bad = (s: string) => /^(a+)+$/.test(s);`)).toContain(
      'regexp/no-super-linear-backtracking',
    );
    expect(await rulesFiring(String.raw`export const bad = new RegExp('^(\\w+\\s?)*$');`)).toContain(
      'regexp/no-super-linear-backtracking',
    );
  });

  it('rejects an unanchored trailing run (quadratic over start positions), not its lookbehind form', async () => {
    expect(await rulesFiring(String.raw`export const trim = (s: string) => s.replace(/\s+$/, '');`)).toContain(
      'regexp/no-super-linear-move',
    );
    expect(await rulesFiring(String.raw`export const trim = (s: string) => s.replace(/(?<!\s)\s+$/, '');`)).toEqual([]);
  });

  it('reports a suppression that suppresses nothing, so none can linger', async () => {
    const stale = '// eslint-disable-next-line regexp/no-super-linear-move -- bounded input\nexport const ok = /^a$/;';
    expect((await lint(stale)).map((m) => m.message)).toEqual([
      "Unused eslint-disable directive (no problems were reported from 'regexp/no-super-linear-move').",
    ]);
  });
});
