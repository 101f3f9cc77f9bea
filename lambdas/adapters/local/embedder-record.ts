import type { CosineScale } from '../../core/chat/calibration.js';
import type { SqliteDatabase } from './database.js';

/**
 * Which embedder made a data folder's vectors, as `name/dimensions` in
 * index_meta: `embedder` is the one search reads; `reindex_to`, while a
 * `library reindex` is unfinished, the one it re-embeds with.
 */
export interface EmbedderRecord {
  current: string | null;
  reindexTo: string | null;
}

export function readEmbedderRecord(db: SqliteDatabase): EmbedderRecord {
  if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'index_meta'`).get())
    return { current: null, reindexTo: null };
  const value = (key: string) =>
    (db.prepare('SELECT value FROM index_meta WHERE key = ?').pluck().get(key) as string | undefined) ?? null;
  return { current: value('embedder'), reindexTo: value('reindex_to') };
}

/** How an embedder is recorded: `name/dimensions`. */
export const embedderValue = (embedder: { name: string; dimensions: number }): string =>
  `${embedder.name}/${embedder.dimensions}`;

/** `name/dimensions` read back (a name may hold slashes: BAAI/bge-small-en-v1.5). */
export function parseEmbedder(value: string): { name: string; dimensions: number } {
  const cut = value.lastIndexOf('/');
  return { name: value.slice(0, cut), dimensions: Number(value.slice(cut + 1)) };
}

export const describeEmbedder = (value: string) => {
  const { name, dimensions } = parseEmbedder(value);
  return `${name} (${dimensions} dimensions)`;
};

/** Starting a data folder with an embedder other than the one that made its vectors. */
export class EmbedderMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbedderMismatchError';
  }
}

/** The refusal, naming both embedders and the ways out. */
export function embedderMismatch(record: EmbedderRecord, wanted: string): EmbedderMismatchError {
  const made = describeEmbedder(record.current!);
  const now = describeEmbedder(wanted);
  if (record.reindexTo === wanted) {
    return new EmbedderMismatchError(
      `A reindex of this data folder to ${now} is unfinished: its vectors are still those of ${made}. ` +
        'Run `npx library reindex` to finish it (it continues where it stopped), or start with the embedder that made them.',
    );
  }
  return new EmbedderMismatchError(
    `This data folder's vectors were made by ${made}, not by ${now}, the embedder configured now: ` +
      'search by meaning cannot compare the vectors of two models, so they are not mixed. ' +
      `Run \`npx library reindex\` to re-embed the library with ${now}, or start with ${made} again ` +
      '(without LIBRARY_EMBED_URL and LIBRARY_EMBED_MODEL the offline universal-sentence-encoder-lite is used).',
  );
}

/**
 * The cosine scale measured for an embedder (core/chat/calibration.ts),
 * kept in index_meta beside the embedder record as `cosine_scale`; null when
 * none was measured for this embedder (a new folder, or another embedder's).
 */
export function readCosineScale(db: SqliteDatabase, embedder: string): CosineScale | null {
  const raw = db.prepare(`SELECT value FROM index_meta WHERE key = 'cosine_scale'`).pluck().get() as string | undefined;
  if (!raw) return null;
  try {
    const kept = JSON.parse(raw) as { embedder?: unknown; related?: unknown; unrelated?: unknown };
    if (kept.embedder !== embedder || typeof kept.related !== 'number' || typeof kept.unrelated !== 'number')
      return null;
    return { related: kept.related, unrelated: kept.unrelated };
  } catch {
    return null;
  }
}

export function writeCosineScale(db: SqliteDatabase, embedder: string, scale: CosineScale): void {
  db.prepare(
    `INSERT INTO index_meta (key, value) VALUES ('cosine_scale', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  ).run(JSON.stringify({ embedder, ...scale }));
}
