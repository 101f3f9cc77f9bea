import { describe, expect, it } from 'vitest';
import { parseMetadata } from '../../console/src/components/documents/metadata.js';

describe("the console's metadata editor", () => {
  it('counts characters as the API does: 1,024 emoji fit a string, 1,025 do not', () => {
    expect(parseMetadata(JSON.stringify({ a: '😀'.repeat(1024), b: ['😀'.repeat(256)] }))).toHaveProperty('metadata');
    expect(parseMetadata(JSON.stringify({ a: '😀'.repeat(1025) }))).toHaveProperty('error');
    expect(parseMetadata(JSON.stringify({ b: ['😀'.repeat(257)] }))).toHaveProperty('error');
  });
});
