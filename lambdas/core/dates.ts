import type { Clock } from './ports.js';

/** ISO 8601 UTC with six fractional digits and no zone designator (API.md, "Dates"). */
export function formatTimestamp(date: Date, microseconds = 0): string {
  const iso = date.toISOString(); // 2026-11-22T06:41:03.123Z
  return `${iso.slice(0, 23)}${String(microseconds).padStart(3, '0')}`;
}

/** A clock whose readings are strictly increasing, so ties never reorder lists. */
export function systemClock(): Clock {
  let lastMs = 0;
  let micros = 0;
  return {
    now() {
      const ms = Date.now();
      if (ms > lastMs) {
        lastMs = ms;
        micros = 0;
      } else if (micros < 999) {
        micros += 1;
      }
      return formatTimestamp(new Date(lastMs), micros);
    },
  };
}

/** `YYYY-MM-DD` of a timestamp. */
export const dayOf = (timestamp: string): string => timestamp.slice(0, 10);

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(value: string): boolean {
  const m = CALENDAR_DATE.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value;
}
