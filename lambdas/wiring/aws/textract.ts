import { TextractClient } from '@aws-sdk/client-textract';
import { TextractOcr } from '../../adapters/aws/textract-ocr.js';
import { TextractPdfOcr } from '../../adapters/aws/textract-pdf-ocr.js';
import { FileExtractor } from '../../adapters/extraction/extractor.js';
import { awsConfig, TEXTRACT_STAGING_PREFIX } from './config.js';
import { tracer } from './observability.js';
import { s3Client } from './s3.js';
import { sdkOptions } from './sdk.js';

/**
 * The ingest function's extractor: the full pipeline (PDF text layer, DOCX,
 * images), Textract for OCR: DetectDocumentText for a photo or one scanned
 * page, and for a PDF with several scanned pages one asynchronous job on a
 * copy staged in the service bucket (TextractPdfOcr). Only the ingest entry
 * imports this module, so no other function bundles Textract or the pipeline.
 */
export function ingestExtractor(): FileExtractor {
  const textract = new TextractOcr(tracer.captureAWSv3Client(new TextractClient(sdkOptions())));
  const config = awsConfig();
  return new FileExtractor({
    ocr: textract,
    // The same slow-work rule as the capture functions' (InlineTextExtractor), should the worker ever ask.
    limits: { inlineMaxBytes: config.inlineMaxBytes },
    pdfOcr: new TextractPdfOcr({ jobs: textract, s3: s3Client(), bucket: config.blobBucket, prefix: TEXTRACT_STAGING_PREFIX }),
  });
}
