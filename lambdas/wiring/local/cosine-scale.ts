import type { SqliteDatabase } from '../../adapters/local/database.js';
import { embedderValue, readCosineScale, writeCosineScale } from '../../adapters/local/embedder-record.js';
import { type CosineScale, measureCosineScale } from '../../core/chat/calibration.js';
import type { Embedder } from '../../core/ports.js';

/**
 * The cosine scale of the data folder's embedder, as the chat's gate asks for
 * it: the one recorded with the embedder, else measured (the calibration set
 * embedded once, about a second offline) and recorded. A measurement that
 * fails (an embeddings server down) is tried again at the next chat; until
 * then the gate reads cosines as they come.
 */
export function recordedCosineScale(
  db: SqliteDatabase,
  embedder: Embedder,
  log?: (message: string, detail: Record<string, unknown>) => void,
): () => Promise<CosineScale | undefined> {
  const name = embedderValue(embedder);
  let known: CosineScale | null = readCosineScale(db, name);
  let measuring: Promise<CosineScale | undefined> | null = null;
  return async () => {
    if (known) return known;
    measuring ??= measureCosineScale(embedder).then(
      ({ scale }) => {
        known = scale;
        try {
          writeCosineScale(db, name, scale);
        } catch {
          // The folder closed meanwhile (a stopping server): measured again at the next start.
        }
        return scale;
      },
      (error: unknown) => {
        measuring = null;
        log?.('the embedder could not be calibrated yet: chat reads cosines unscaled until it is', {
          error: String((error as Error)?.message ?? error),
        });
        return undefined;
      },
    );
    return measuring;
  };
}
