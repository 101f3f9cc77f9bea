import { describe, expect, it } from 'vitest';
import { checkedSpec } from '../../console/src/components/chart-spec.js';

/** A chart artifact is data from the library: the console draws it only as a self-contained Vega-Lite spec. */
describe('the console draws a chart spec only as data', () => {
  const bars = {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    data: { values: [{ item: 'Q1', value: 120 }] },
    mark: 'bar',
    encoding: { x: { field: 'item' }, y: { field: 'value', type: 'quantitative' } },
  };

  it('keeps a Vega-Lite spec with inline values as it is (a copy)', () => {
    const checked = checkedSpec(bars);
    expect(checked).toEqual(bars);
    expect(checked).not.toBe(bars);
  });

  it('drops usermeta, where vega-embed would read embed options (an action menu, an editor URL)', () => {
    const checked = checkedSpec({
      ...bars,
      usermeta: { embedOptions: { actions: true, editorUrl: 'https://x.example' } },
    });
    expect(checked).not.toHaveProperty('usermeta');
  });

  it('refuses data or images from anywhere but the spec itself, and specs that are not Vega-Lite', () => {
    expect(() => checkedSpec({ ...bars, data: { url: 'https://evil.example/data.json' } })).toThrow(/not drawn/);
    expect(() =>
      checkedSpec({ ...bars, layer: [{ mark: { type: 'image' }, encoding: { url: { value: '//x.example/a.png' } } }] }),
    ).toThrow(/not drawn/);
    expect(() =>
      checkedSpec({ ...bars, encoding: { ...bars.encoding, href: { value: 'javascript:alert(1)' } } }),
    ).toThrow(/not drawn/);
    expect(() => checkedSpec({ ...bars, encoding: { ...bars.encoding, href: { field: 'item' } } })).toThrow(
      /not drawn/,
    );
    expect(() => checkedSpec({ ...bars, data: { values: [], url: '/v1/documents' } })).toThrow(/not drawn/);
    expect(() => checkedSpec({ ...bars, config: { href: 'javascript:alert(1)' } })).toThrow(/not drawn/);
    expect(checkedSpec({ ...bars, data: { url: 'data:application/json,[]' } })).toBeTruthy();
    expect(() => checkedSpec({ ...bars, $schema: 'https://vega.github.io/schema/vega/v5.json' })).toThrow(
      /only Vega-Lite/,
    );
  });
});
