import { describe, expect, it } from 'vitest';
import {
  buildArtifact,
  type CitedFact,
  dataPointsOf,
  keyValue,
  pricedItems,
  tableOf,
  VEGA_LITE_SCHEMA,
} from '../../lambdas/core/chat/artifacts.js';
import { artifactIntent, artifactTitle, wantsItems } from '../../lambdas/core/chat/intent.js';

const fact = (text: string, lines = [1]): CitedFact => ({ text, title: 'Report', fileId: 'file_1', lines });

describe('artifact intent', () => {
  it('knows a request for a chart, a table or a list', () => {
    expect(artifactIntent('Draw a bar chart of revenue per quarter')).toBe('chart');
    expect(artifactIntent('Plot the yearly sales')).toBe('chart');
    expect(artifactIntent('Make a table of the suppliers')).toBe('table');
    expect(artifactIntent('Export the prices as CSV')).toBe('table');
    expect(artifactIntent('List the risks of the project')).toBe('list');
    expect(artifactIntent('When is the launch?')).toBeNull();
    expect(artifactIntent('What is the chemical formula of table salt?')).toBeNull();
  });

  it('itemizes an answer that is several things, without making a creation nobody asked for', () => {
    for (const question of [
      'what are the rules at the allotment',
      'What do I need for the cycling class?',
      'what do we still need to buy for the party',
      'what else needs fixing on the car',
      'List the risks of the project',
      'What do I need to grab at Costco?',
      'What have I got coming up?',
      'What repair jobs in the house have we got booked?',
      "Anything I need to remember for Maya's school?",
      'Is there anything else we should take to the campsite?',
    ])
      expect(wantsItems(question), question).toBe(true);
    expect(artifactIntent('what are the rules at the allotment')).toBeNull();
    for (const question of [
      'When is the launch?',
      'what is the rent now',
      'how much did I pay for the rules book',
      'who have we got coming to fix the boiler', // one person: not "what ... got"
      'did I need anything for the form', // a yes or no
    ])
      expect(wantsItems(question), question).toBe(false);
  });

  it('titles the creation by its subject', () => {
    expect(artifactTitle('Please make a table of the quarterly revenue?', 'Table')).toBe('Quarterly revenue');
    expect(artifactTitle('Draw a bar chart of sales by region', 'Chart')).toBe('Sales by region');
    expect(artifactTitle('List the risks', 'List')).toBe('Risks');
    expect(artifactTitle('Chart the sales?! . ?', 'Chart')).toBe('Sales');
    expect(artifactTitle('Who? What. Why!', 'Table')).toBe('Who? What. Why');
    expect(artifactTitle('?? !', 'Table')).toBe('?? !');
  });

  it('titles in linear time whatever the question ends with', () => {
    const started = performance.now();
    expect(artifactTitle(`Make a table of ${'?'.repeat(50_000)}x`, 'Table')).toMatch(/^\?{79}…$/);
    expect(artifactTitle(`Make a table of x${' ?'.repeat(25_000)}`, 'Table')).toBe('X');
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe('creations from cited facts', () => {
  it('a table of key/value facts has their keys and values, each with its source and lines', () => {
    const table = tableOf([fact('Q1: 120', [2]), fact('Q2: 150', [3])], 'Revenue');
    expect(table.content).toBe(
      '| Item | Value | Source |\n| --- | --- | --- |\n| Q1 | 120 | Report, line 2 |\n| Q2 | 150 | Report, line 3 |',
    );
  });

  it('a table of prose facts lists them, escaping the Markdown pipe', () => {
    const table = tableOf([fact('The launch moved to March.', [3]), fact('A | B are partners.', [4, 5])], 'Facts');
    expect(table.content).toContain('| 1 | The launch moved to March. | Report, line 3 |');
    expect(table.content).toContain('| 2 | A \\| B are partners. | Report, lines 4–5 |');
  });

  it('reads numbers with labels, not years, percent as a unit', () => {
    const points = dataPointsOf([
      fact('In 2024 revenue grew to 4,200 thousand euros.'),
      fact('Churn: 3.5%'),
      fact('No numbers here.'),
    ]);
    expect(points).toEqual([
      { label: '2024 revenue grew', value: 4200, unit: null, source: 'Report, line 1' },
      { label: 'Churn', value: 3.5, unit: '%', source: 'Report, line 1' },
    ]);
  });

  it('a chart is a Vega-Lite bar chart of the cited numbers', () => {
    const built = buildArtifact('chart', 'Chart the quarterly revenue', [fact('Q1: 120'), fact('Q2: 150')])!;
    expect(built.note).toBeUndefined();
    expect(built.draft).toMatchObject({
      type: 'chart',
      content_type: 'application/vnd.vegalite.v5+json',
      title: 'Quarterly revenue',
    });
    const spec = JSON.parse(built.draft.content);
    expect(spec.$schema).toBe(VEGA_LITE_SCHEMA);
    expect(spec.mark).toBe('bar');
    expect(spec.data.values.map((v: { label: string; value: number }) => [v.label, v.value])).toEqual([
      ['Q1', 120],
      ['Q2', 150],
    ]);
    expect(spec.encoding.y).toMatchObject({ field: 'value', type: 'quantitative' });
  });

  it('a chart without numbers becomes a table and says so; no facts, no creation', () => {
    const built = buildArtifact('chart', 'Chart the team', [fact('Ingrid leads the team.')])!;
    expect(built.draft.type).toBe('table');
    expect(built.note).toMatch(/no numbers/);
    expect(buildArtifact('table', 'Table of nothing', [])).toBeNull();
    expect(buildArtifact('list', 'List the team', [fact('Ingrid leads the team.')])!.draft).toMatchObject({
      type: 'document',
      content_type: 'text/markdown',
      content: '# Team\n\n- Ingrid leads the team. (Report, line 1)',
    });
  });
});

describe('key/value facts', () => {
  it('reads "Key: value", "Key = value" and "Key — value", a bullet before, spaces trimmed', () => {
    expect(keyValue('Q1: 120')).toEqual({ key: 'Q1', value: '120' });
    expect(keyValue('  - Revenue = 4.2 million ')).toEqual({ key: 'Revenue', value: '4.2 million' });
    expect(keyValue('• Lead — Ingrid Solberg')).toEqual({ key: 'Lead', value: 'Ingrid Solberg' });
    expect(keyValue('Range – 1:2')).toEqual({ key: 'Range', value: '1:2' });
    expect(keyValue('Ratio: 1: 2')).toEqual({ key: 'Ratio', value: '1: 2' });
    expect(keyValue('Period 2020–2021: growth')).toEqual({ key: 'Period 2020–2021', value: 'growth' });
    expect(keyValue('Period 2020 – 2021: growth')).toEqual({ key: 'Period 2020', value: '2021: growth' });
    expect(keyValue('   : v')).toEqual({ key: '', value: 'v' });
    expect(keyValue('k:  \t')).toEqual({ key: 'k', value: '' });
  });

  it('is no pair without a space after the separator, with a key over 60 characters, a sentence as key or a value over lines', () => {
    for (const text of [
      'Churn:3.5%',
      'Churn',
      `${'k'.repeat(61)}: v`,
      'The launch is in: March',
      'Key: one\ntwo',
      'Key: value\n',
      ': v',
      'k: \n',
    ]) {
      expect(keyValue(text), JSON.stringify(text)).toBeNull();
    }
    expect(keyValue(`${'k'.repeat(60)}: v`)).toEqual({ key: 'k'.repeat(60), value: 'v' });
  });

  it('gives what the pattern it replaces gave, on every short text of the characters that matter', () => {
    // The pattern keyValue was, kept only to compare with: applied here to texts of at most 12 characters.
    // eslint-disable-next-line regexp/no-super-linear-backtracking -- the old pattern, as a reference on short texts only
    const OLD = /^\s*[-*•]?\s*([^:=—]{1,60}?)\s*(?::|=|—|–)\s+(.+)$/;
    const old = (text: string) => {
      const m = OLD.exec(text);
      return m && !/\s(is|are|was|were)\s/i.test(m[1]!) ? { key: m[1]!.trim(), value: m[2]!.trim() } : null;
    };
    // Every kind of white space and line break there is, two that are neither (U+0085, U+180E), the separators and bullets.
    const alphabet = [
      ' ',
      ' ',
      '\n',
      '\r',
      '\t',
      '\v',
      '\f',
      '\u00a0',
      '\u1680',
      '\u2005',
      '\u2028',
      '\u2029',
      '\u202f',
      '\u205f',
      '\u3000',
      '\ufeff',
      '\u0085',
      '\u180e',
      '-',
      '*',
      '•',
      ':',
      ':',
      '=',
      '—',
      '–',
      'a',
      'Q',
      '1',
      ' is ',
      '.',
    ];
    let seed = 24;
    const random = (below: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % below;
    let pairs = 0;
    for (let i = 0; i < 30_000; i++) {
      let text = '';
      for (let length = random(13); length > 0; length--) text += alphabet[random(alphabet.length)];
      const expected = old(text);
      if (expected) pairs += 1;
      expect(keyValue(text), JSON.stringify(text)).toEqual(expected);
    }
    expect(pairs).toBeGreaterThan(500);
    for (const key of [59, 60, 61].map((n) => 'k'.repeat(n))) {
      for (const text of [`${key}: v`, `- ${key}: v`, `  ${key} = v`, ` ${' '.repeat(58)}: v`, `•${key}— v`]) {
        expect(keyValue(text), text).toEqual(old(text));
      }
    }
  });

  it('is read in linear time (the pattern took 10 s on 500 spaces)', () => {
    const timed = (text: string) => {
      const started = performance.now();
      const pair = keyValue(text);
      expect(performance.now() - started, JSON.stringify(text.slice(0, 8))).toBeLessThan(100);
      return pair;
    };
    for (const text of [
      ' '.repeat(50_000),
      `- ${' '.repeat(50_000)}`,
      `a:${' '.repeat(50_000)}\n`,
      `${' '.repeat(25_000)}:${' '.repeat(25_000)}\n`,
      'a '.repeat(25_000),
    ]) {
      expect(timed(text)).toBeNull();
    }
    expect(timed(`${' '.repeat(50_000)}: v`)).toEqual({ key: '', value: 'v' });
  });
});

describe('priced items', () => {
  it('reads each clause with one amount as an item and its price, brackets and thousands kept whole', () => {
    expect(
      pricedItems(
        'Three quotes for the worktops: Stone Masters £2,400, WorktopExpress £1,850 and a local carpenter £2,100 (wood, not quartz).',
      ),
    ).toEqual([
      { key: 'Stone Masters', value: '£2,400' },
      { key: 'WorktopExpress', value: '£1,850' },
      { key: 'a local carpenter', value: '£2,100 (wood, not quartz)' },
    ]);
    expect(pricedItems('Gym membership is £34 per month, renews in January.')).toEqual([
      { key: 'Gym membership', value: '£34 per month, renews in January' },
    ]);
    expect(pricedItems('The taxi came to £18, the tip was £2!!')).toEqual([
      { key: 'The taxi', value: '£18' },
      { key: 'the tip', value: '£2' },
    ]);
  });

  it('splits at "and" only between two priced items, keeps a leading clause, reads prices in words', () => {
    expect(pricedItems('Fish and chips £12, pizza £9')).toEqual([
      { key: 'Fish and chips', value: '£12' },
      { key: 'pizza', value: '£9' },
    ]);
    expect(pricedItems('Burger £8, salt and vinegar crisps £1')).toEqual([
      { key: 'Burger', value: '£8' },
      { key: 'salt and vinegar crisps', value: '£1' },
    ]);
    expect(pricedItems('Sandwich, crisps £4, taxi 18 pounds')).toEqual([
      { key: 'Sandwich, crisps', value: '£4' },
      { key: 'taxi', value: '18 pounds' },
    ]);
    // Linking words alone name the fact's key.
    expect(pricedItems('Rent: was £900, now £950')).toEqual([
      { key: 'Rent', value: '£900' },
      { key: 'now', value: '£950' },
    ]);
    // So does nothing at all before the amount; a clause before it names the item without a stray comma.
    expect(pricedItems('Parking fine: £70, pay within 14 days.')).toEqual([
      { key: 'Parking fine', value: '£70, pay within 14 days' },
    ]);
    expect(pricedItems('Window cleaner every other Thursday, £18 a visit.')).toEqual([
      { key: 'Window cleaner every other Thursday', value: '£18 a visit' },
    ]);
  });

  it('is none when a clause holds two amounts, an item has no name, or nothing has a price', () => {
    expect(pricedItems('I spent £20 on lunch.')).toBeNull();
    expect(pricedItems('Rent goes up from £950 to £1,020 a month.')).toBeNull();
    expect(pricedItems('£45, £60 and £12.')).toBeNull();
    expect(pricedItems('The launch moved to March.')).toBeNull();
  });

  it('a table of a note listing several prices has a row for each, beside the key/value facts', () => {
    const table = tableOf(
      [fact('Fence quotes: Hayes Fencing £1,240, GardenPro £980 and Oakline £1,410.', [1]), fact('Gate: £150', [2])],
      'Fence quotes',
    );
    expect(table.content).toBe(
      [
        '| Item | Value | Source |',
        '| --- | --- | --- |',
        '| Hayes Fencing | £1,240 | Report, line 1 |',
        '| GardenPro | £980 | Report, line 1 |',
        '| Oakline | £1,410 | Report, line 1 |',
        '| Gate | £150 | Report, line 2 |',
      ].join('\n'),
    );
  });
});
