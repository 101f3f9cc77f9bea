import { zipSync } from 'fflate';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { CaptureRejected } from '../../core/errors.js';

export interface ZipLimits {
  maxZipEntries: number;
  maxZipUncompressedBytes: number;
}

/**
 * Inflates a zip container (DOCX) counting the bytes that really come out,
 * and hands back the same entries in a zip that stores them uncompressed.
 *
 * A parser that inflates the zip itself (mammoth through JSZip) checks an
 * entry's size only after inflating it, and the sizes a zip declares are the
 * attacker's to choose: a 97 KB file declaring 100 bytes can inflate to
 * 41 MB, a 4 MiB one to gigabytes. Here the central directory is read by
 * yauzl, which stops an entry the moment its output passes the size it
 * declared; the declared sizes are summed against the limit first, and the
 * real output is counted against it as it streams. The parser then only
 * reads what was counted.
 */
export async function inflateZipBounded(bytes: Uint8Array, limits: ZipLimits): Promise<Uint8Array> {
  const zip = await openZip(bytes);
  try {
    if (zip.entryCount > limits.maxZipEntries) {
      throw new CaptureRejected(
        'too_large',
        `the zip container holds ${zip.entryCount} entries; at most ${limits.maxZipEntries}`,
      );
    }
    const files: Record<string, Uint8Array> = {};
    let inflated = 0;
    const overLimit = () =>
      new CaptureRejected(
        'too_large',
        `the zip container inflates to more than ${limits.maxZipUncompressedBytes} bytes; at most ${limits.maxZipUncompressedBytes}`,
      );
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      if (entry.fileName.endsWith('/')) continue; // a folder: no bytes
      if (inflated + entry.uncompressedSize > limits.maxZipUncompressedBytes) throw overLimit();
      const chunks: Buffer[] = [];
      const stream = await openEntry(zip, entry);
      await new Promise<void>((resolve, reject) => {
        stream.on('data', (chunk: Buffer) => {
          inflated += chunk.byteLength;
          if (inflated > limits.maxZipUncompressedBytes) {
            stream.destroy();
            reject(overLimit());
            return;
          }
          chunks.push(chunk);
        });
        stream.on('error', (error) => reject(corrupt(error)));
        stream.on('end', () => resolve());
      });
      files[entry.fileName] = Buffer.concat(chunks);
    }
    return zipSync(files, { level: 0 });
  } finally {
    zip.close();
  }
}

function openZip(bytes: Uint8Array): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      { lazyEntries: true, validateEntrySizes: true, strictFileNames: false },
      (error, zip) => {
        if (error || !zip) reject(corrupt(error));
        else resolve(zip);
      },
    );
  });
}

/** The next entry of the central directory, or null after the last. */
function nextEntry(zip: ZipFile): Promise<Entry | null> {
  return new Promise((resolve, reject) => {
    const cleanUp = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: Entry) => {
      cleanUp();
      resolve(entry);
    };
    const onEnd = () => {
      cleanUp();
      resolve(null);
    };
    const onError = (error: unknown) => {
      cleanUp();
      reject(corrupt(error));
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

function openEntry(zip: ZipFile, entry: Entry): Promise<NodeJS.ReadableStream & { destroy(): void }> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) reject(corrupt(error));
      else resolve(stream);
    });
  });
}

function corrupt(error: unknown): CaptureRejected {
  if (error instanceof CaptureRejected) return error;
  // yauzl's words when an entry's output passes the size the zip declared for it.
  if (error instanceof Error && /too many bytes in the stream/i.test(error.message)) {
    return new CaptureRejected(
      'too_large',
      'an entry of the zip container inflates past the size it declares (a decompression bomb)',
    );
  }
  return new CaptureRejected('extraction_failed', 'the file is a corrupt or truncated zip container');
}
