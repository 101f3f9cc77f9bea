import { describe, expect, it } from 'vitest';
import { questionParts, standaloneParts } from '../../lambdas/core/chat/question-parts.js';

describe('the asks a question joins (question-parts.ts)', () => {
  it('splits where a second question word starts a second ask', () => {
    expect(questionParts('where are we staying for the wedding and what does it cost')).toEqual([
      'where are we staying for the wedding',
      'what does it cost',
    ]);
    expect(questionParts('What is my blood type, and when is the book club?')).toEqual([
      'What is my blood type',
      'when is the book club?',
    ]);
    expect(questionParts('When is the dentist? And how much is the rent; who is the landlord')).toEqual([
      'When is the dentist',
      'how much is the rent',
      'who is the landlord',
    ]);
  });

  it('keeps one ask whole: things joined in one ask, a question word with no words of its own, an instruction after it', () => {
    for (const one of [
      'what did we decide about cats and dogs',
      'when and where is the wedding',
      'how much was the boiler repair and who did it',
      'When did Caroline go on a hike and have a bad time?',
      'Was September a good month for Nate and Joanna? Answer yes or no.',
    ])
      expect(questionParts(one)).toEqual([one]);
  });

  it('searches alone only the asks that stand on their own, and none for a single ask', () => {
    expect(standaloneParts('where are we staying for the wedding and what does it cost')).toEqual([
      'where are we staying for the wedding',
    ]);
    expect(standaloneParts('when is the dentist')).toEqual([]);
  });

  it('reads a long run of spaces and question marks in linear time', () => {
    const hostile = `what is it${' ?'.repeat(50_000)}x`;
    const started = performance.now();
    questionParts(hostile);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
