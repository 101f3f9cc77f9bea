import { Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { checkedSpec } from './chart-spec';

/**
 * Vega names its container after the spec's description (replacing our label, or
 * removing it when there is none), so the description leads with the label.
 */
function described(spec: object, label: string): object {
  const said = (spec as { description?: unknown }).description;
  const text = typeof said === 'string' ? said : '';
  return { ...spec, description: text.startsWith(label) ? text : text ? `${label}. ${text}` : label };
}

/**
 * Draws a Vega-Lite spec with Vega (vega-embed), loaded on first use so pages
 * without a chart never fetch it. Expressions run through vega-interpreter
 * (`ast: true`): the page's Content-Security-Policy forbids eval. SVG, no
 * action menu (it would open other windows), and an accessible name.
 */
export function VegaChart({ spec, label }: { spec: object; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let finalize: (() => void) | undefined;
    let cancelled = false;
    (async () => {
      try {
        const [{ default: embed }, { expressionInterpreter }] = await Promise.all([
          import('vega-embed'),
          import('vega-interpreter'),
        ]);
        if (cancelled || !container.current) return;
        const result = await embed(container.current, described(checkedSpec(spec), label) as never, {
          renderer: 'svg',
          actions: false,
          ast: true,
          expr: expressionInterpreter,
        });
        if (cancelled) result.finalize();
        else finalize = () => result.finalize();
      } catch (caught) {
        if (!cancelled) setError(caught instanceof Error ? caught.message : String(caught));
      }
    })();
    return () => {
      cancelled = true;
      finalize?.();
    };
  }, [spec, label]);

  return (
    <figure style={{ margin: 0 }}>
      <div
        ref={container}
        role="img"
        aria-label={label}
        data-chart="vega-lite"
        style={{ maxWidth: '100%', overflowX: 'auto' }}
      />
      {error && (
        <Text c="red.8" size="sm" role="alert">
          The chart could not be drawn: {error}
        </Text>
      )}
    </figure>
  );
}
