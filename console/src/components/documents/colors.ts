/**
 * Badge colours with white text at WCAG AA contrast (4.5:1 for their small
 * bold text): Mantine's darkest shades, and for green a shade darker still
 * (green.9 gives 4.4:1).
 */
export const GREEN = '#267a37';
export const STATUS_COLORS = {
  processing: 'blue.9',
  ready: GREEN,
  failed: 'red.9',
  deleted: 'gray.7',
  // An upload whose status could not be read (a dark orange: 6:1 against white).
  unknown: '#b03d0c',
} as const;
export const RECEIPT_COLORS = {
  queued: 'gray.7',
  sending: 'blue.9',
  created: GREEN,
  deduped: 'teal.9',
  rejected: 'red.9',
} as const;
