import { describe, expect, it } from 'vitest';
import { normalizeBaseUrl } from '../../client/src/transport.js';
import { tidyLines } from '../../lambdas/adapters/extraction/normalize.js';
import { openAiEndpoint } from '../../lambdas/adapters/local/openai-http.js';
import { resolveConfig } from '../../lib/config.js';

// Issue 24, "no single request can stop the service": patterns rewritten so that the regex lint
// (npm run lint:regex) passes give the same results as before, and take linear time on the
// inputs that made the old ones quadratic (each of these took 1 to 2.5 s at 50,000 characters).
const N = 50_000;
const timed = (run: () => void) => {
  const started = performance.now();
  run();
  return performance.now() - started;
};

describe('trailing runs cut in linear time', () => {
  it('tidyLines: trailing spaces of each line, and the blank lines at the edges', () => {
    expect(tidyLines('a  \t\nb\u00a0\u00a0\r\n\r\n\r\n\r\nc\f\v\n\n')).toBe('a\nb\n\nc');
    expect(tidyLines('\n\n  text\n')).toBe('  text');
    expect(tidyLines('x\u2003 \ny')).toBe('x\u2003\ny'); // only space, tab, form feed and vertical tab are trailing space
    expect(tidyLines('\n\n\n')).toBe('');
    expect(tidyLines('one\n\ntwo')).toBe('one\n\ntwo');
    const spaces = `a${' '.repeat(N)}b`;
    expect(timed(() => expect(tidyLines(spaces)).toBe(spaces))).toBeLessThan(100);
    expect(timed(() => expect(tidyLines(`a${' '.repeat(N)}`)).toBe('a'))).toBeLessThan(100);
  });

  it('openAiEndpoint: the base URL without its trailing slashes, then the operation', () => {
    expect(openAiEndpoint('http://127.0.0.1:11434/v1', '/embeddings')).toBe('http://127.0.0.1:11434/v1/embeddings');
    expect(openAiEndpoint('http://h/v1///', '/embeddings')).toBe('http://h/v1/embeddings');
    expect(openAiEndpoint('http://h/v1/embeddings/', '/embeddings')).toBe('http://h/v1/embeddings');
    expect(openAiEndpoint('http://h/v1/chat/completions', '/chat/completions')).toBe('http://h/v1/chat/completions');
    const slashes = `http://h/${'/'.repeat(N)}x`;
    expect(timed(() => expect(openAiEndpoint(slashes, '/embeddings')).toBe(`${slashes}/embeddings`))).toBeLessThan(100);
  });

  it("normalizeBaseUrl (the client's): the root or the API URL, without trailing slashes or /v1", () => {
    expect(normalizeBaseUrl('http://127.0.0.1:8787/')).toBe('http://127.0.0.1:8787');
    expect(normalizeBaseUrl('https://x.execute-api.eu-west-1.amazonaws.com/prod/v1/')).toBe(
      'https://x.execute-api.eu-west-1.amazonaws.com/prod',
    );
    expect(normalizeBaseUrl('http://h/prod///')).toBe('http://h/prod');
    expect(normalizeBaseUrl('http://h/a//b/')).toBe('http://h/a//b');
    const slashes = `http://h/${'/'.repeat(N)}x`;
    expect(timed(() => expect(normalizeBaseUrl(slashes)).toBe(slashes))).toBeLessThan(100);
    expect(timed(() => expect(normalizeBaseUrl(`http://h/x${'/'.repeat(N)}`)).toBe('http://h/x'))).toBeLessThan(100);
  });
});

describe('the alarm email of the deployment config', () => {
  const email = (address: string) => () => resolveConfig({ alarms: { email: address } });

  it('is name@domain, the domain holding a dot neither first nor last', () => {
    for (const address of ['ops@example.com', 'a@b.c', 'first.last@sub.example.org', 'a@.b.c', 'a@b..c'])
      expect(email(address), address).not.toThrow();
    for (const address of ['not an address', 'a@b', 'a@.b', 'a@b.', 'a@@b.c', 'a b@c.d', '@b.c', 'a@b.c d']) {
      expect(email(address), address).toThrow(/alarms\.email/);
    }
  });

  it('is refused in linear time, however long', () => {
    expect(timed(() => expect(email(`a@${'.'.repeat(N)}@`)).toThrow(/alarms\.email/))).toBeLessThan(100);
    expect(timed(() => expect(email(`a@b${'.'.repeat(N)}`)).not.toThrow())).toBeLessThan(100);
  });
});
