/**
 * A chart's spec comes from the library (a chat's artifact): data, not code.
 * Only Vega-Lite; no `usermeta` (vega-embed would take embed options from it:
 * an action menu, an editor URL, a loader); no URL but `data:` anywhere (data
 * or images from elsewhere; the page's CSP would refuse them too); and no
 * `href` (a mark that is a link could be a `javascript:` one).
 */
export function checkedSpec(spec: object): object {
  const copy = JSON.parse(JSON.stringify(spec)) as Record<string, unknown>;
  const schema = copy.$schema;
  if (schema !== undefined && !(typeof schema === 'string' && schema.includes('/vega-lite/'))) {
    throw new Error('only Vega-Lite charts are drawn');
  }
  delete copy.usermeta;
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        // A link on a mark (`href`, field or value) and a `url` that is not inline data (data, an image's channel).
        if (key === 'href' || (key === 'url' && !(typeof inner === 'string' && inner.startsWith('data:')))) {
          throw new Error(`the chart asks for a ${key} (${JSON.stringify(inner).slice(0, 80)}), which is not drawn`);
        }
        walk(inner);
      }
    }
  };
  walk(copy);
  return copy;
}
