import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wordRarity } from '../../lambdas/core/chat/word-rarity.js';
import { commonWordsModule } from '../../scripts/common-words.js';

describe("a word's rarity in everyday English", () => {
  it('is the table SUBTLEX-US gives today: common-words.ts is generated, not edited', () => {
    const checkedIn = readFileSync(new URL('../../lambdas/core/chat/common-words.ts', import.meta.url), 'utf8');
    expect(checkedIn).toBe(commonWordsModule());
  });

  it('weighs words everybody says least, rare words, names and words the list lacks fully', () => {
    expect(wordRarity('time')).toBeLessThan(wordRarity('leave'));
    expect(wordRarity('leave')).toBeLessThan(wordRarity('key'));
    expect(wordRarity('key')).toBeLessThan(wordRarity('dentist'));
    expect(wordRarity('the')).toBe(0.2);
    expect(wordRarity('Dentist')).toBe(wordRarity('dentist'));
    for (const word of ['leylandii', 'okafor', 'courgettes', 'xq7']) expect(wordRarity(word), word).toBe(1);
  });
});
