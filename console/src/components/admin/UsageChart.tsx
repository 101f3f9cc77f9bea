import { Box } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useMemo } from 'react';
import type { UsageResponse } from '../../../../client/src/index.js';
import { VegaChart } from '../VegaChart';
import { usageSpec } from './usage';

/** The month's usage per day as bars, as wide as the page allows (redrawn when the width changes by a step). */
export function UsageChart({ usage, label }: { usage: UsageResponse; label: string }) {
  const { ref, width } = useElementSize();
  // Room for the axis; steps of 40 px so a resize does not redraw at every pixel.
  const plotWidth = Math.max(160, Math.floor((width - 60) / 40) * 40);
  const spec = useMemo(() => usageSpec(usage, plotWidth), [usage, plotWidth]);
  return <Box ref={ref}>{width > 0 && <VegaChart spec={spec} label={label} />}</Box>;
}
