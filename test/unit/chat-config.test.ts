import { afterEach, describe, expect, it } from 'vitest';
import { readLocalConfig } from '../../bin/config.js';

const saved = { ...process.env };
afterEach(() => {
  for (const name of [
    'LIBRARY_CHAT_URL',
    'LIBRARY_CHAT_MODEL',
    'LIBRARY_CHAT_API_KEY',
    'LIBRARY_EMBED_URL',
    'LIBRARY_EMBED_MODEL',
    'LIBRARY_EMBED_API_KEY',
    'LIBRARY_EMBED_QUERY_PREFIX',
    'LIBRARY_EMBED_PASSAGE_PREFIX',
  ]) {
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

describe('embedder configuration', () => {
  it('is the offline model unless both URL and model are set; the key and prefixes are optional', () => {
    for (const name of [
      'LIBRARY_EMBED_URL',
      'LIBRARY_EMBED_MODEL',
      'LIBRARY_EMBED_API_KEY',
      'LIBRARY_EMBED_QUERY_PREFIX',
      'LIBRARY_EMBED_PASSAGE_PREFIX',
    ])
      delete process.env[name];
    expect(readLocalConfig().embed).toBeNull();
    process.env.LIBRARY_EMBED_URL = 'http://localhost:11434/v1';
    process.env.LIBRARY_EMBED_MODEL = 'nomic-embed-text';
    expect(readLocalConfig().embed).toEqual({ url: 'http://localhost:11434/v1', model: 'nomic-embed-text' });
    process.env.LIBRARY_EMBED_API_KEY = 'k';
    process.env.LIBRARY_EMBED_QUERY_PREFIX = 'search_query: ';
    process.env.LIBRARY_EMBED_PASSAGE_PREFIX = 'search_document: ';
    expect(readLocalConfig().embed).toEqual({
      url: 'http://localhost:11434/v1',
      model: 'nomic-embed-text',
      apiKey: 'k',
      queryPrefix: 'search_query: ',
      passagePrefix: 'search_document: ',
    });
  });

  it('fails fast on half a configuration or a URL that is not http(s)', () => {
    delete process.env.LIBRARY_EMBED_URL;
    process.env.LIBRARY_EMBED_MODEL = 'nomic-embed-text';
    expect(() => readLocalConfig()).toThrow(/both LIBRARY_EMBED_URL and LIBRARY_EMBED_MODEL/);
    process.env.LIBRARY_EMBED_URL = 'localhost:11434';
    expect(() => readLocalConfig()).toThrow(/LIBRARY_EMBED_URL must be an http\(s\) URL/);
  });
});
