import type { Document } from '../../../../client/src/index.js';

/** A size in words a person reads at a glance: 812 B, 14.2 KB, 3.1 MB (powers of 1024, as the API's limits). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** The API's dates are UTC without a zone (`2026-11-22T06:41:03.123456`): shown to the minute, saying UTC. */
export function formatDate(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : iso;
}

export type MetadataValue = Document['metadata'][string];

/** One metadata value as text: an array as its items joined by commas. */
export function formatMetadataValue(value: MetadataValue): string {
  return Array.isArray(value) ? value.join(', ') : String(value);
}
