import type { BlobStore, Clock, DocumentStore, Embedder, SearchIndex, TenantStore, TextExtractor } from '../ports.js';
import { CaptureService, type CaptureDeps } from './capture.js';
import { DocumentService } from './documents.js';
import { EndUserService } from './end-users.js';
import { GrepService } from './grep.js';
import { KeyService } from './keys.js';
import { SearchService, type SearchOptions } from './search.js';

/** Every port the core needs, whichever stack provides them. */
export interface Ports {
  documents: DocumentStore;
  blobs: BlobStore;
  index: SearchIndex;
  embedder: Embedder;
  extractor: TextExtractor;
  tenants: TenantStore;
  clock: Clock;
}

export interface Services {
  capture: CaptureService;
  search: SearchService;
  grep: GrepService;
  documents: DocumentService;
  endUsers: EndUserService;
  keys: KeyService;
  embedder: Embedder;
}

export function buildServices(
  ports: Ports,
  options: { search?: SearchOptions; onCaptured?: CaptureDeps['onCaptured'] } = {},
): Services {
  return {
    capture: new CaptureService({ ...ports, onCaptured: options.onCaptured }),
    search: new SearchService(ports, options.search),
    grep: new GrepService(ports),
    documents: new DocumentService(ports),
    endUsers: new EndUserService(ports),
    keys: new KeyService(ports),
    embedder: ports.embedder,
  };
}
