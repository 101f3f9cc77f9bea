import type { UsageDay, UsageDelta, UsageLedger } from '../../core/ports.js';
import type { SqliteDatabase } from './database.js';

/** Spend per tenant per day in SQLite: one row per (tenant, day), incremented in one statement. */
export class SqliteUsageLedger implements UsageLedger {
  constructor(private readonly db: SqliteDatabase) {
    db.exec(`CREATE TABLE IF NOT EXISTS usage_days (
      tenant_id TEXT NOT NULL,
      date TEXT NOT NULL,
      tokens_used INTEGER NOT NULL DEFAULT 0,
      chat_calls INTEGER NOT NULL DEFAULT 0,
      ocr_pages INTEGER NOT NULL DEFAULT 0,
      captures INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (tenant_id, date)
    ) WITHOUT ROWID`);
  }

  async add(tenantId: string, date: string, delta: UsageDelta): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO usage_days (tenant_id, date, tokens_used, chat_calls, ocr_pages, captures) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (tenant_id, date) DO UPDATE SET
           tokens_used = tokens_used + excluded.tokens_used,
           chat_calls = chat_calls + excluded.chat_calls,
           ocr_pages = ocr_pages + excluded.ocr_pages,
           captures = captures + excluded.captures`,
      )
      .run(tenantId, date, delta.tokensUsed, delta.chatCalls, delta.ocrPages, delta.captures);
  }

  async days(tenantId: string, from: string, to: string): Promise<UsageDay[]> {
    const rows = this.db
      .prepare(
        `SELECT date, tokens_used, chat_calls, ocr_pages, captures FROM usage_days
         WHERE tenant_id = ? AND date BETWEEN ? AND ? ORDER BY date`,
      )
      .all(tenantId, from, to) as Array<{
      date: string;
      tokens_used: number;
      chat_calls: number;
      ocr_pages: number;
      captures: number;
    }>;
    return rows.map((r) => ({
      date: r.date,
      tokensUsed: r.tokens_used,
      chatCalls: r.chat_calls,
      ocrPages: r.ocr_pages,
      captures: r.captures,
    }));
  }
}
