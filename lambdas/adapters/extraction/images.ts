import type sharpType from 'sharp';
import { CaptureRejected } from '../../core/errors.js';
import type { Deadline } from './deadline.js';
import type { ExtractionLimits } from './limits.js';
import type { OcrImage } from './ocr-ports.js';

/** sharp (native) loads with the first image, not with the module: the ingest Lambda's cold start does not pay for it. */
let sharpModule: Promise<typeof sharpType> | undefined;
const loadSharp = () => (sharpModule ??= import('sharp').then((m) => m.default));

/** Small images are enlarged before OCR: Tesseract reads text best at 20 px or more per line. */
const MIN_SIDE_PX = 1_000;

/** How many pages an image holds: TIFF pages are pages; GIF and WebP animations count only their first frame. */
export async function imagePageCount(
  bytes: Uint8Array,
  contentType: string,
  limits: ExtractionLimits,
): Promise<number> {
  // Only a TIFF's header is read here; any other image is one page, and a bad one is refused when its page is prepared for OCR.
  if (contentType !== 'image/tiff') return 1;
  try {
    const sharp = await loadSharp();
    const meta = await sharp(bytes, { limitInputPixels: limits.maxImagePixels }).metadata();
    return Math.max(1, meta.pages ?? 1);
  } catch (error) {
    throw imageReject(error);
  }
}

/**
 * One page of an image as OCR input: EXIF orientation applied, transparency
 * flattened onto white, grey, and scaled into [MIN_SIDE_PX, ocrMaxSidePx].
 * The pixel limit guards against image bombs before anything is decoded.
 */
export async function imagePageForOcr(
  bytes: Uint8Array,
  page: number,
  limits: ExtractionLimits,
  deadline: Deadline,
): Promise<OcrImage> {
  try {
    const sharp = await loadSharp();
    const source = sharp(bytes, { limitInputPixels: limits.maxImagePixels, page, failOn: 'error' });
    const meta = await deadline.race(source.metadata());
    const width = meta.autoOrient?.width ?? meta.width ?? 0;
    const height = meta.pageHeight ?? meta.autoOrient?.height ?? meta.height ?? 0;
    const longest = Math.max(width, height);
    if (!longest) throw new CaptureRejected('extraction_failed', 'the image has no pixels');
    const target =
      longest > limits.ocrMaxSidePx
        ? limits.ocrMaxSidePx
        : longest < MIN_SIDE_PX
          ? Math.min(MIN_SIDE_PX, longest * 3)
          : longest;
    const { data, info } = await deadline.race(
      source
        .rotate()
        .flatten({ background: '#ffffff' })
        .greyscale()
        .toColourspace('b-w')
        .resize({
          width: width >= height ? Math.round(target) : undefined,
          height: height > width ? Math.round(target) : undefined,
        })
        .png()
        .toBuffer({ resolveWithObject: true }),
    );
    return { png: new Uint8Array(data), width: info.width, height: info.height };
  } catch (error) {
    throw imageReject(error);
  }
}

function imageReject(error: unknown): CaptureRejected {
  if (error instanceof CaptureRejected) return error;
  const message = error instanceof Error ? error.message : '';
  if (/pixel limit/i.test(message))
    return new CaptureRejected('too_large', 'the image has more pixels than the extraction limit');
  return new CaptureRejected('extraction_failed', 'the image is corrupt or truncated');
}
