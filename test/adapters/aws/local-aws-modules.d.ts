/** Minimal types for the two local AWS API servers the adapter tests start. */
declare module 'dynalite' {
  import type { Server } from 'node:http';
  export default function dynalite(options?: {
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    path?: string;
  }): Server;
}

declare module 's3rver' {
  import type { AddressInfo } from 'node:net';
  export default class S3rver {
    constructor(options: {
      port?: number;
      address?: string;
      silent?: boolean;
      directory: string;
      configureBuckets?: Array<{ name: string }>;
    });
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
}
