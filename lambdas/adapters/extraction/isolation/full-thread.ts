/** A reader thread with the full pipeline (the local stack, the AWS ingest function): every format, OCR through the supervisor. */
import { FileExtractor } from '../extractor.js';
import { serveReads, supervisorOcr, supervisorPdfOcr, threadData } from './reader-thread.js';

serveReads(
  new FileExtractor({
    ocr: supervisorOcr,
    pdfOcr: threadData.pdfOcr ? supervisorPdfOcr : undefined,
    limits: threadData.limits,
  }),
);
