import { describe, expect, it } from 'vitest';
import {
  formatEta,
  formatProgressLine,
  type ProgressCounts,
  type ProgressState,
  shortenName,
} from '../../bin/push-progress.js';

/** `library push`'s progress line on a terminal: it fits the width, and gives up the file name before any count. */
describe('push progress line', () => {
  const longName = 'projects/2026/harbour-authority/minutes-of-the-board/quarterly/meeting-notes-april.md';
  const small: ProgressCounts = {
    created: 3,
    replaced: 1,
    deduped: 0,
    metadata_updated: 0,
    unchanged: 5,
    rejected: 0,
    failed: 0,
  };
  const large: ProgressCounts = {
    created: 1234,
    replaced: 56,
    deduped: 0,
    metadata_updated: 0,
    unchanged: 7890,
    rejected: 2,
    failed: 1,
  };
  const state = (counts: ProgressCounts, extra: Partial<ProgressState> = {}): ProgressState => ({
    done:
      counts.created +
      counts.replaced +
      counts.unchanged +
      counts.rejected +
      counts.failed +
      counts.deduped +
      counts.metadata_updated,
    total: 10_000,
    counts,
    rate: 45.25,
    etaSeconds: 65,
    file: longName,
    ...extra,
  });
  const fiveCounts = (c: ProgressCounts) => [
    `${c.created} created`,
    `${c.replaced} replaced`,
    `${c.unchanged} unchanged`,
    `${c.rejected} rejected`,
    `${c.failed} failed`,
  ];

  for (const columns of [80, 120]) {
    it(`fits ${columns} columns (one kept free) and always shows the five counts, whole, up to four digits each`, () => {
      const cases = [
        state(small),
        state(large),
        state(large, { note: 'waiting 2.0 s (429 rate_limited)' }),
        state({ ...small, deduped: 12, metadata_updated: 3 }),
        state(small, { file: undefined }),
      ];
      for (const s of cases) {
        const line = formatProgressLine(s, columns);
        expect(line.length, line).toBeLessThanOrEqual(columns - 1);
        for (const count of fiveCounts(s.counts)) expect(line).toContain(count);
        expect(line).toContain(`${s.done}/10000`);
      }
    });
  }

  it('shortens the file name from the left first, then drops the bar, the rate and ETA, then the name', () => {
    const wide = formatProgressLine(state(small, { file: 'a.txt' }), 120);
    expect(wide).toMatch(
      /^[\u2588\u2591]{20} 9\/10000 \| 45\.3\/s ETA 1m05s \| 3 created, 1 replaced, 5 unchanged, 0 rejected, 0 failed \| a\.txt$/,
    );
    // A longer name: the bar narrows before the name is cut below 16 characters.
    expect(formatProgressLine(state(small, { file: 'notes/a.txt' }), 120)).toMatch(
      /^[\u2588\u2591]{10} 9\/10000 .* \| notes\/a\.txt$/,
    );

    const at120 = formatProgressLine(state(small), 120);
    expect(at120).toMatch(
      /^[\u2588\u2591]{10} 9\/10000 \| 45\.3\/s ETA 1m05s \| 3 created, .* 0 failed \| \u2026[^|]+$/,
    );
    expect(longName.endsWith(at120.split(' | ').at(-1)!.slice(1))).toBe(true);
    expect(at120).toHaveLength(119);

    const at80 = formatProgressLine(state(small), 80);
    // At 80 the rate and ETA have gone too; what room is left goes to the end of the name.
    expect(at80).toBe('9/10000 | 3 created, 1 replaced, 5 unchanged, 0 rejected, 0 failed | \u2026-april.md');

    // Four-digit counts at 120: the bar goes, the rate stays, the name is shortened.
    const large120 = formatProgressLine(state(large), 120);
    expect(large120).toMatch(
      /^9183\/10000 \| 45\.3\/s ETA 1m05s \| 1234 created, 56 replaced, 7890 unchanged, 2 rejected, 1 failed \| \u2026.*april\.md$/,
    );
    // ... and at 80 only the counts and a few characters of the name (its end) are left.
    const large80 = formatProgressLine(state(large), 80);
    expect(large80.startsWith('9183/10000 | 1234 created, 56 replaced, 7890 unchanged, 2 rejected, 1 failed')).toBe(
      true,
    );
    expect(large80).not.toContain('ETA');

    // A note (waiting out a 429) takes the place of the rate and ETA.
    expect(formatProgressLine(state(small, { note: 'waiting 2.0 s (429 rate_limited)' }), 120)).toContain(
      '| waiting 2.0 s (429 rate_limited) |',
    );
  });

  it('never cuts one of the five counts: the deduped and metadata counts go first, then the commas; narrower, the line runs over', () => {
    const extras = { deduped: 12, metadata_updated: 3 };
    expect(formatProgressLine(state({ ...small, ...extras }), 120)).toContain(
      '| 3 created, 1 replaced, 12 deduped, 3 metadata updated, 5 unchanged, 0 rejected, 0 failed |',
    );
    expect(formatProgressLine(state({ ...small, ...extras }), 80)).toBe(
      '24/10000 | 3 created, 1 replaced, 5 unchanged, 0 rejected, 0 failed',
    );
    expect(formatProgressLine(state({ ...large, ...extras }), 74)).toBe(
      '9198/10000 1234 created 56 replaced 7890 unchanged 2 rejected 1 failed',
    );
    const narrow = formatProgressLine(state(large), 40);
    for (const count of fiveCounts(large)) expect(narrow).toContain(count);
    // An unknown width is taken as 80.
    expect(formatProgressLine(state(small), undefined)).toBe(formatProgressLine(state(small), 80));
  });

  it('shortens names from the left and formats the ETA', () => {
    expect(shortenName('notes/deep/b.csv', 100)).toBe('notes/deep/b.csv');
    expect(shortenName('notes/deep/b.csv', 8)).toBe('\u2026p/b.csv');
    expect(shortenName('notes/deep/b.csv', 8)).toHaveLength(8);
    expect([formatEta(9.4), formatEta(65), formatEta(3725), formatEta(Number.NaN), formatEta(Infinity)]).toEqual([
      '9s',
      '1m05s',
      '1h02m',
      '?',
      '?',
    ]);
  });
});
