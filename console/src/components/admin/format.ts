import { formatDate } from '../documents/format';

/** "1 document", "2 documents". */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? word : many}`;
}

/** A moment the API gave (UTC, without a zone): to the minute, saying UTC, as every page shows dates. */
export function formatMoment(iso: string | null | undefined): string {
  return iso ? formatDate(iso) : '';
}
