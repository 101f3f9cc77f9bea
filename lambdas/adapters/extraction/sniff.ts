import CFB from 'cfb';
import { fileTypeFromBuffer } from 'file-type';
import { CaptureRejected } from '../../core/errors.js';
import { bomEncoding } from './text-decoding.js';

/** What the bytes really are, decided by their magic numbers (the declared type only breaks ties among text formats). */
export type Sniffed =
  | { family: 'pdf'; contentType: 'application/pdf' }
  | { family: 'docx'; contentType: string }
  | { family: 'image'; contentType: string }
  /** No magic number: a text format, told apart later by the declared type, the filename and the content. */
  | { family: 'text' };

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const IMAGE_TYPES = new Set(['image/png', 'image/apng', 'image/jpeg', 'image/tiff', 'image/webp', 'image/gif']);
/** Text formats file-type recognizes by their opening characters; they stay text. */
const TEXT_MAGIC = new Set(['application/xml', 'text/xml', 'image/svg+xml', 'text/calendar', 'text/vcard']);

export async function sniff(bytes: Uint8Array): Promise<Sniffed> {
  // A byte order mark is text's own magic number (FF FE would otherwise pass for an MPEG audio frame).
  if (bomEncoding(bytes)) return { family: 'text' };
  const found = await fileTypeFromBuffer(bytes).catch(() => undefined);
  if (!found) return { family: 'text' };
  const mime = found.mime as string;
  if (mime === 'application/pdf') return { family: 'pdf', contentType: mime };
  if (mime === DOCX) return { family: 'docx', contentType: DOCX };
  if (IMAGE_TYPES.has(mime)) return { family: 'image', contentType: mime === 'image/apng' ? 'image/png' : mime };
  if (mime === 'application/rtf') throw unsupported('RTF');
  if (TEXT_MAGIC.has(mime)) return { family: 'text' };
  if (mime === 'application/x-cfb') throw compoundFileReject(bytes);
  throw unsupported(describe(found.ext, mime));
}

/**
 * A password-protected DOCX (or XLSX, PPTX) is not a zip but an OLE compound
 * file holding EncryptionInfo and EncryptedPackage streams; any other compound
 * file is a legacy Office format (.doc, .xls, .msg) we do not read.
 */
function compoundFileReject(bytes: Uint8Array): CaptureRejected {
  try {
    const container = CFB.read(bytes, { type: 'buffer' });
    if (CFB.find(container, 'EncryptedPackage') && CFB.find(container, 'EncryptionInfo')) {
      return new CaptureRejected('encrypted_document', 'the document is password-protected');
    }
  } catch {
    return new CaptureRejected('extraction_failed', 'the file looks like an OLE compound file but is corrupt');
  }
  return unsupported('a legacy Office compound file (.doc, .xls, .ppt, .msg)');
}

function describe(ext: string, mime: string): string {
  if (mime === 'application/zip' || ['tar', 'gz', '7z', 'rar', 'bz2', 'xz', 'zst', 'cab', 'lz', 'lzh'].includes(ext))
    return `an archive (${ext})`;
  if (mime.startsWith('audio/')) return `audio (${ext})`;
  if (mime.startsWith('video/')) return `video (${ext})`;
  if (['exe', 'elf', 'macho', 'dll', 'class', 'wasm', 'dex', 'msi', 'deb', 'rpm', 'apk'].includes(ext))
    return `an executable (${ext})`;
  return `${mime} (${ext})`;
}

function unsupported(what: string): CaptureRejected {
  return new CaptureRejected('unsupported_type', `no text can be extracted from ${what}`);
}
