import { dayOf, isCalendarDate } from './dates.js';
import { invalidRequest } from './errors.js';
import type { Clock, UsageDay, UsageDelta, UsageLedger } from './ports.js';

/**
 * Spend per tenant per day: tokens (chat prompt + completion + embeddings),
 * chat calls, OCR pages and captures. Always charged to the tenant, never to
 * an end user: no method here takes one.
 */
export interface UsageReport {
  tenant_id: string;
  from: string;
  to: string;
  tokens_used: number;
  chat_calls: number;
  ocr_pages: number;
  captures: number;
  days: Array<{ date: string; tokens_used: number; chat_calls: number; ocr_pages: number; captures: number }>;
}

/** A document whose text became known: one capture and the OCR pages read for it. */
export interface CaptureSpend {
  tenantId: string;
  at: string;
  ocrPages: number;
  /** How many captures this charge counts (a group of a batch's items charged at once); 1 when absent. */
  captures?: number;
}

/** Texts embedded for a tenant (a document's passages, a chat's reply), charged as the embedder reported them. */
export interface EmbeddingSpend {
  tenantId: string;
  at: string;
  /** The tokens the embedder said it read (Embedding.tokens). */
  tokens: number;
}

/** What the capture pipeline charges. */
export type PipelineSpend = Pick<UsageService, 'recordCapture' | 'recordEmbedding'>;

const monthStart = (date: string) => `${date.slice(0, 7)}-01`;
function monthEnd(date: string): string {
  const [y, m] = date.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
}

/**
 * The report's range: both given, or the month of the one given, or the
 * current month (UTC) when neither is.
 */
export function resolveRange(today: string, from?: string, to?: string): { from: string; to: string } {
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (value !== undefined && !isCalendarDate(value))
      throw invalidRequest(`${name}: must be a date written YYYY-MM-DD`);
  }
  const anchor = from ?? to ?? today;
  const range = { from: from ?? monthStart(anchor), to: to ?? monthEnd(anchor) };
  if (range.from > range.to) throw invalidRequest('from: must not be after to');
  return range;
}

const EMPTY: UsageDelta = { tokensUsed: 0, chatCalls: 0, ocrPages: 0, captures: 0 };

export class UsageService {
  constructor(private readonly deps: { usage: UsageLedger; clock: Clock }) {}

  /** Captures whose text is known (one unless said): the captures and their OCR pages. */
  async recordCapture(event: CaptureSpend): Promise<void> {
    const captures = event.captures ?? 1;
    await this.deps.usage.add(event.tenantId, dayOf(event.at), { ...EMPTY, captures, ocrPages: event.ocrPages });
  }

  /** The tokens of an embedding made for a tenant outside a chat's answer. */
  async recordEmbedding(event: EmbeddingSpend): Promise<void> {
    if (event.tokens <= 0) return;
    await this.deps.usage.add(event.tenantId, dayOf(event.at), { ...EMPTY, tokensUsed: event.tokens });
  }

  /** One chat call and the tokens it consumed. */
  async recordChat(tenantId: string, at: string, tokensUsed: number): Promise<void> {
    await this.deps.usage.add(tenantId, dayOf(at), { ...EMPTY, chatCalls: 1, tokensUsed });
  }

  async report(tenantId: string, request: { from?: string; to?: string }): Promise<UsageReport> {
    const range = resolveRange(dayOf(this.deps.clock.now()), request.from, request.to);
    const days = await this.deps.usage.days(tenantId, range.from, range.to);
    const total = days.reduce<UsageDelta>(
      (sum, d) => ({
        tokensUsed: sum.tokensUsed + d.tokensUsed,
        chatCalls: sum.chatCalls + d.chatCalls,
        ocrPages: sum.ocrPages + d.ocrPages,
        captures: sum.captures + d.captures,
      }),
      EMPTY,
    );
    return {
      tenant_id: tenantId,
      from: range.from,
      to: range.to,
      tokens_used: total.tokensUsed,
      chat_calls: total.chatCalls,
      ocr_pages: total.ocrPages,
      captures: total.captures,
      days: days.map(toView),
    };
  }
}

const toView = (d: UsageDay) => ({
  date: d.date,
  tokens_used: d.tokensUsed,
  chat_calls: d.chatCalls,
  ocr_pages: d.ocrPages,
  captures: d.captures,
});
