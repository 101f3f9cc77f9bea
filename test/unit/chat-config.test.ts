import { afterEach, describe, expect, it } from 'vitest';
import { readLocalConfig } from '../../bin/config.js';

const saved = { ...process.env };
afterEach(() => {
  for (const name of ['LIBRARY_CHAT_URL', 'LIBRARY_CHAT_MODEL', 'LIBRARY_CHAT_API_KEY']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe('chat model configuration', () => {
  it('is the offline answerer unless both URL and model are set', () => {
    delete process.env.LIBRARY_CHAT_URL;
    delete process.env.LIBRARY_CHAT_MODEL;
    expect(readLocalConfig().chat).toBeNull();
    process.env.LIBRARY_CHAT_URL = 'http://127.0.0.1:11434/v1';
    process.env.LIBRARY_CHAT_MODEL = 'llama3.1:8b';
    expect(readLocalConfig().chat).toEqual({ url: 'http://127.0.0.1:11434/v1', model: 'llama3.1:8b' });
    process.env.LIBRARY_CHAT_API_KEY = 'k';
    expect(readLocalConfig().chat).toMatchObject({ apiKey: 'k' });
  });

  it('fails fast on half a configuration or a URL that is not http(s)', () => {
    process.env.LIBRARY_CHAT_URL = 'http://127.0.0.1:11434/v1';
    delete process.env.LIBRARY_CHAT_MODEL;
    expect(() => readLocalConfig()).toThrow(/both LIBRARY_CHAT_URL and LIBRARY_CHAT_MODEL/);
    process.env.LIBRARY_CHAT_URL = 'ftp://x';
    process.env.LIBRARY_CHAT_MODEL = 'm';
    expect(() => readLocalConfig()).toThrow(/http\(s\) URL/);
  });
});
