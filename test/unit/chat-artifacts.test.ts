import { describe, expect, it } from 'vitest';
import { buildArtifact, dataPointsOf, tableOf, VEGA_LITE_SCHEMA, type CitedFact } from '../../lambdas/core/chat/artifacts.js';
import { artifactIntent, artifactTitle } from '../../lambdas/core/chat/intent.js';

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

  it('titles the creation by its subject', () => {
    expect(artifactTitle('Please make a table of the quarterly revenue?', 'Table')).toBe('Quarterly revenue');
    expect(artifactTitle('Draw a bar chart of sales by region', 'Chart')).toBe('Sales by region');
    expect(artifactTitle('List the risks', 'List')).toBe('Risks');
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
    const points = dataPointsOf([fact('In 2024 revenue grew to 4,200 thousand euros.'), fact('Churn: 3.5%'), fact('No numbers here.')]);
    expect(points).toEqual([
      { label: '2024 revenue grew', value: 4200, unit: null, source: 'Report, line 1' },
      { label: 'Churn', value: 3.5, unit: '%', source: 'Report, line 1' },
    ]);
  });

  it('a chart is a Vega-Lite bar chart of the cited numbers', () => {
    const built = buildArtifact('chart', 'Chart the quarterly revenue', [fact('Q1: 120'), fact('Q2: 150')])!;
    expect(built.note).toBeUndefined();
    expect(built.draft).toMatchObject({ type: 'chart', content_type: 'application/vnd.vegalite.v5+json', title: 'Quarterly revenue' });
    const spec = JSON.parse(built.draft.content);
    expect(spec.$schema).toBe(VEGA_LITE_SCHEMA);
    expect(spec.mark).toBe('bar');
    expect(spec.data.values.map((v: { label: string; value: number }) => [v.label, v.value])).toEqual([['Q1', 120], ['Q2', 150]]);
    expect(spec.encoding.y).toMatchObject({ field: 'value', type: 'quantitative' });
  });

  it('a chart without numbers becomes a table and says so; no facts, no creation', () => {
    const built = buildArtifact('chart', 'Chart the team', [fact('Ingrid leads the team.')])!;
    expect(built.draft.type).toBe('table');
    expect(built.note).toMatch(/no numbers/);
    expect(buildArtifact('table', 'Table of nothing', [])).toBeNull();
    expect(buildArtifact('list', 'List the team', [fact('Ingrid leads the team.')])!.draft).toMatchObject({
      type: 'document', content_type: 'text/markdown', content: '# Team\n\n- Ingrid leads the team. (Report, line 1)',
    });
  });
});
