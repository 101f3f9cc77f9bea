import { resolve } from 'node:path';

/** The local service's settings, read once from the environment. */
export interface LocalConfig {
  host: string;
  port: number;
  dataDir: string;
  rateLimit: { ratePerSecond: number; burst: number };
}

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not "${raw}"`);
  return value;
}

export function readLocalConfig(): LocalConfig {
  return {
    host: process.env.HOST || '127.0.0.1',
    port: positiveNumber('PORT', 8787),
    dataDir: resolve(process.env.LIBRARY_DATA_DIR || './.library'),
    rateLimit: {
      ratePerSecond: positiveNumber('LIBRARY_RATE_LIMIT_RPS', 20),
      burst: positiveNumber('LIBRARY_RATE_LIMIT_BURST', 40),
    },
  };
}
