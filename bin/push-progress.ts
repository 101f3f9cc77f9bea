/**
 * The progress line `library push` draws on a terminal (through cli-progress,
 * which calls this as its format function on each redraw).
 *
 * The line fits the terminal, and what it gives up to fit is chosen: the
 * counts (done/total, and created / replaced / unchanged / rejected /
 * failed) are the point of the line and are never shortened nor dropped.
 * The file name is shortened first (from the left: the end of a path names
 * the file), then the bar narrows and goes, then the rate and ETA go (a
 * note in their place, "waiting 2.0 s (429 rate_limited)", stays longer: it
 * says why the run stands still), then the file name goes, then the
 * deduped and metadata updated counts (shown once they happen; the summary
 * at the end has them), and last the commas between the five counts. A
 * line that wraps would be redrawn on a new row each time (a scrolling
 * mess), so one column is kept free: the cursor never sits past the last
 * column.
 */
export interface ProgressCounts {
  created: number;
  replaced: number;
  deduped: number;
  metadata_updated: number;
  unchanged: number;
  rejected: number;
  failed: number;
}

export interface ProgressState {
  done: number;
  total: number;
  counts: ProgressCounts;
  /** Files per second so far. */
  rate?: number;
  /** Seconds left, as cli-progress estimates them (NaN or Infinity while unknown). */
  etaSeconds?: number;
  /** The file reported last. */
  file?: string;
  /** Said instead of the rate and ETA while it holds (waiting out a 429); kept over the file name. */
  note?: string;
}

/** Below this, a shortened file name says too little to be worth the bar and the rate it would push out. */
const MIN_FILE_CHARS = 16;
const BAR_WIDTHS = [20, 10];
const SEPARATOR = ' | ';

/** The five counts always; deduped and metadata updated once they happen, unless `five` (no room for them). */
function countParts(c: ProgressCounts, five = false): string[] {
  return [
    `${c.created} created`,
    `${c.replaced} replaced`,
    ...(c.deduped && !five ? [`${c.deduped} deduped`] : []),
    ...(c.metadata_updated && !five ? [`${c.metadata_updated} metadata updated`] : []),
    `${c.unchanged} unchanged`,
    `${c.rejected} rejected`,
    `${c.failed} failed`,
  ];
}

export function formatEta(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** The bar in cli-progress's shades_classic characters. */
function bar(done: number, total: number, width: number): string {
  const filled = total > 0 ? Math.min(width, Math.round((done / total) * width)) : 0;
  return '\u2588'.repeat(filled) + '\u2591'.repeat(width - filled);
}

/** The end of `name` in `room` characters, an ellipsis where the start was. */
export function shortenName(name: string, room: number): string {
  if (name.length <= room) return name;
  if (room <= 1) return '';
  return `\u2026${name.slice(name.length - (room - 1))}`;
}

/** The progress line for a terminal `columns` wide (80 when unknown). */
export function formatProgressLine(state: ProgressState, columns: number | undefined): string {
  const width = Math.max(1, (columns && columns > 0 ? columns : 80) - 1);
  const head = `${state.done}/${state.total}`;
  const counts = countParts(state.counts).join(', ');
  const stats = state.note ?? `${(state.rate ?? 0).toFixed(1)}/s ETA ${formatEta(state.etaSeconds)}`;
  const compose = (barWidth: number, withStats: boolean, file: string) =>
    [
      barWidth ? `${bar(state.done, state.total, barWidth)} ${head}` : head,
      ...(withStats ? [stats] : []),
      counts,
      ...(file ? [file] : []),
    ].join(SEPARATOR);

  // Richest layout first; each gives the file name what room is left.
  const layouts: Array<[barWidth: number, withStats: boolean, minFile: number]> = [
    ...BAR_WIDTHS.map((w): [number, boolean, number] => [w, true, MIN_FILE_CHARS]),
    [0, true, MIN_FILE_CHARS],
    // A note says why the run stands still: it outlasts the file name.
    ...(state.note ? [[0, true, 0] as [number, boolean, number]] : []),
    [0, false, 2],
  ];
  const file = state.file ?? '';
  for (const [barWidth, withStats, minFile] of layouts) {
    const base = compose(barWidth, withStats, '');
    if (base.length > width) continue;
    if (!file) return base;
    const room = width - base.length - SEPARATOR.length;
    if (room >= Math.min(file.length, minFile)) return compose(barWidth, withStats, shortenName(file, room));
  }
  // No room for the file name: the counts alone; then the five alone (the summary at the
  // end has the others); then without their commas. Narrower than that they are still
  // whole (the terminal may cut them; this never does).
  const plain = compose(0, false, '');
  if (plain.length <= width) return plain;
  const five = [head, countParts(state.counts, true).join(', ')].join(SEPARATOR);
  return five.length <= width ? five : [head, ...countParts(state.counts, true)].join(' ');
}
