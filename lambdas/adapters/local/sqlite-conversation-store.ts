import type { LibraryRef } from '../../core/model.js';
import type { ConversationStore, ConversationTurnRecord } from '../../core/ports.js';
import type { SqliteDatabase } from './database.js';

/** The shared library is stored under this end-user id (as in sqlite-document-store.ts): real ids are at least 1 character. */
const SHARED = '';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS conversation_turns (
  tenant_id TEXT NOT NULL,
  end_user_id TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  generation TEXT NOT NULL,
  question TEXT NOT NULL,
  reply TEXT NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, end_user_id, conversation_id, run_id)
) WITHOUT ROWID;
`;

const lib = (ref: LibraryRef) => [ref.tenantId, ref.endUserId ?? SHARED] as const;

interface TurnRow {
  run_id: string;
  question: string;
  reply: string;
  at: string;
}

/**
 * Conversations' turns in the same SQLite file as the libraries: one row per
 * turn, keyed by library, conversation and run (run ids are ULIDs, so they
 * sort by time). The file runs with secure_delete, so a removed turn's text
 * is overwritten (an erasure's scrub then checkpoints the WAL).
 */
export class SqliteConversationStore implements ConversationStore {
  constructor(private readonly db: SqliteDatabase) {
    db.exec(SCHEMA);
  }

  async recentTurns(
    ref: LibraryRef,
    conversationId: string,
    generation: string,
    limit: number,
  ): Promise<ConversationTurnRecord[]> {
    const rows = this.db
      .prepare(
        `SELECT run_id, question, reply, at FROM conversation_turns
         WHERE tenant_id = ? AND end_user_id = ? AND conversation_id = ? AND generation = ?
         ORDER BY run_id DESC LIMIT ?`,
      )
      .all(...lib(ref), conversationId, generation, limit) as TurnRow[];
    return rows.reverse().map((r) => ({ runId: r.run_id, question: r.question, reply: r.reply, at: r.at }));
  }

  async append(
    ref: LibraryRef,
    conversationId: string,
    generation: string,
    turn: ConversationTurnRecord,
    keep: number,
  ): Promise<void> {
    // One transaction: the new turn and the trimming of the oldest.
    this.db
      .transaction(() => {
        this.db
          .prepare(
            `INSERT INTO conversation_turns (tenant_id, end_user_id, conversation_id, run_id, generation, question, reply, at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (tenant_id, end_user_id, conversation_id, run_id) DO UPDATE SET
             generation = excluded.generation, question = excluded.question, reply = excluded.reply, at = excluded.at`,
          )
          .run(...lib(ref), conversationId, turn.runId, generation, turn.question, turn.reply, turn.at);
        this.db
          .prepare(
            `DELETE FROM conversation_turns WHERE tenant_id = ? AND end_user_id = ? AND conversation_id = ? AND run_id NOT IN (
             SELECT run_id FROM conversation_turns WHERE tenant_id = ? AND end_user_id = ? AND conversation_id = ? ORDER BY run_id DESC LIMIT ?)`,
          )
          .run(...lib(ref), conversationId, ...lib(ref), conversationId, keep);
      })
      .immediate();
  }

  async removeTurn(ref: LibraryRef, conversationId: string, runId: string): Promise<void> {
    this.db
      .prepare(
        'DELETE FROM conversation_turns WHERE tenant_id = ? AND end_user_id = ? AND conversation_id = ? AND run_id = ?',
      )
      .run(...lib(ref), conversationId, runId);
  }

  async removeLibrary(ref: LibraryRef, options: { keep?: string | null } = {}): Promise<number> {
    const keep = options.keep ?? null;
    return this.db
      .prepare(
        'DELETE FROM conversation_turns WHERE tenant_id = ? AND end_user_id = ? AND (? IS NULL OR generation <> ?)',
      )
      .run(...lib(ref), keep, keep).changes;
  }
}
