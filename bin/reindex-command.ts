/**
 * `library reindex`: re-embeds every vector of the data folder with the
 * embedder configured now (LIBRARY_EMBED_URL and LIBRARY_EMBED_MODEL, or
 * the offline default), resumably (core/reindex.ts, sqlite-reindex.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import cliProgress from 'cli-progress';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { openDatabase } from '../lambdas/adapters/local/database.js';
import {
  describeEmbedder,
  embedderValue,
  readCosineScale,
  writeCosineScale,
} from '../lambdas/adapters/local/embedder-record.js';
import { SqliteVectorReindex } from '../lambdas/adapters/local/sqlite-reindex.js';
import { SqliteSearchIndex } from '../lambdas/adapters/local/sqlite-search-index.js';
import { measureCosineScale } from '../lambdas/core/chat/calibration.js';
import { REINDEX_BATCH, type ReindexProgress, reindexLibrary } from '../lambdas/core/reindex.js';
import { startLocalEmbedder } from '../lambdas/wiring/local/embedder.js';
import type { LocalConfig } from './config.js';

type Stream = NodeJS.WritableStream & { isTTY?: boolean };

/** A bar on a terminal; elsewhere a line at every tenth of the way (and the last). */
function progressReporter(out: Stream): { update(p: ReindexProgress): void; stop(): void } {
  if (out.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream: out,
        format: 'reindex {bar} {value}/{total} passages | ETA {eta_formatted}',
        hideCursor: true,
        etaBuffer: 50,
        fps: 5,
      },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update: ({ done, total }) => {
        if (!started) bar.start(total, done);
        started = true;
        bar.setTotal(total);
        bar.update(done);
      },
      stop: () => bar.stop(),
    };
  }
  let shown = -1;
  return {
    update: ({ done, total }) => {
      const tenth = total ? Math.floor((10 * done) / total) : 10;
      if (tenth === shown) return;
      shown = tenth;
      out.write(`reindex: ${done}/${total} passages\n`);
    },
    stop: () => undefined,
  };
}

/** Returns the exit code: 0 done (or nothing to do), 1 failed (rerun to continue), 2 usage. */
export async function runReindexCommand(
  argv: string[],
  config: LocalConfig,
  out: { stdout: Stream; stderr: Stream } = process,
): Promise<number> {
  const program = new Command('library reindex')
    .description(
      'Re-embed every passage of every document, chat and creation in $LIBRARY_DATA_DIR with the embedder configured now ' +
        '(LIBRARY_EMBED_URL and LIBRARY_EMBED_MODEL, or the offline default). Resumable: a run cut off loses nothing, and the next continues. ' +
        'Search keeps the old vectors until every passage has a new one, then switches at once. Best run with the server stopped; ' +
        'a server left running serves on with the old embedder and, after the switch, refuses search by meaning until restarted with the new one.',
    )
    .option(
      '-b, --batch <n>',
      'passages embedded (and kept) per step',
      (value) => {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('--batch must be an integer >= 1');
        return n;
      },
      REINDEX_BATCH,
    )
    .helpOption('-h, --help')
    .exitOverride()
    .configureOutput({ writeOut: (s) => out.stdout.write(s), writeErr: (s) => out.stderr.write(s) });
  try {
    program.parse(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError)
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.help' ? 0 : 2;
    throw error;
  }
  const { batch } = program.opts<{ batch: number }>();
  const file = join(config.dataDir, 'library.db');
  if (!existsSync(file)) {
    out.stderr.write(
      `library reindex: no library database in ${config.dataDir} (LIBRARY_DATA_DIR): nothing to reindex\n`,
    );
    return 1;
  }
  const db = openDatabase(file);
  let embedder: Awaited<ReturnType<typeof startLocalEmbedder>> | null = null;
  const progress = progressReporter(out.stdout);
  try {
    embedder = await startLocalEmbedder(config.embed);
    const target = describeEmbedder(embedderValue(embedder.embedder));
    const outcome = await reindexLibrary(
      { store: new SqliteVectorReindex(db), embedder: embedder.embedder },
      { batch, onProgress: (p) => progress.update(p) },
    );
    progress.stop();
    // The chat's gate reads cosines on this embedder's scale: measured now, recorded with it (core/chat/calibration.ts).
    const scale =
      readCosineScale(db, embedderValue(embedder.embedder)) ?? (await measureCosineScale(embedder.embedder)).scale;
    writeCosineScale(db, embedderValue(embedder.embedder), scale);
    if (outcome.alreadyCurrent) {
      out.stdout.write(`library reindex: the vectors are already ${target}'s: nothing to do\n`);
    } else {
      // Opening the index as the server will proves the folder now takes this embedder.
      new SqliteSearchIndex(db, embedder.embedder.dimensions, embedder.embedder.name);
      out.stdout.write(
        `library reindex: ${outcome.total} passages now embedded by ${target} (${outcome.embedded} this run${outcome.resumed ? ', continuing an earlier one' : ''}; ` +
          `before: ${outcome.from ? describeEmbedder(outcome.from) : 'none recorded'}); its cosine scale: question-answer ${scale.related.toFixed(3)}, ` +
          `unrelated ${scale.unrelated.toFixed(3)}. Start the server with the same embedder settings.\n`,
      );
    }
    return 0;
  } catch (error) {
    progress.stop();
    out.stderr.write(
      `library reindex: ${error instanceof Error ? error.message : String(error)}\nNothing finished is lost: run it again to continue.\n`,
    );
    return 1;
  } finally {
    await embedder?.close();
    db.close();
  }
}
