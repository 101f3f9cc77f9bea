import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SecretCipher } from '../../core/ports.js';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const VERSION = 'v1';

/**
 * Secrets at rest on the local stack: AES-256-GCM, the tenant id as
 * additional authenticated data (a sealed value copied to another tenant's
 * row does not open). Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export class AesSecretCipher implements SecretCipher {
  constructor(private readonly key: Buffer) {
    if (key.byteLength !== KEY_BYTES) throw new Error(`the secrets key must be ${KEY_BYTES} bytes`);
  }

  async seal(plaintext: string, context: { tenantId: string }): Promise<string> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context.tenantId, 'utf8'));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), sealed]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  async open(sealed: string, context: { tenantId: string }): Promise<string> {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context.tenantId, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** The key file in the data folder, readable by its owner only. */
export const SECRETS_KEY_FILE = 'secrets.key';

/**
 * The local secrets key: LIBRARY_SECRETS_KEY (base64 of 32 bytes) when the
 * operator sets it (then a copied data folder alone opens nothing), else a
 * key file created on first start in the data folder, mode 0600.
 */
export function loadSecretsKey(dataDir: string, fromEnv: string | undefined): Buffer {
  if (fromEnv) {
    const key = Buffer.from(fromEnv, 'base64');
    if (key.byteLength !== KEY_BYTES)
      throw new Error('LIBRARY_SECRETS_KEY must be the base64 of 32 bytes (openssl rand -base64 32)');
    return key;
  }
  const file = join(dataDir, SECRETS_KEY_FILE);
  if (!existsSync(file)) {
    try {
      writeFileSync(file, randomBytes(KEY_BYTES).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // another process made it first: use theirs
    }
  }
  chmodSync(file, 0o600);
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.byteLength !== KEY_BYTES) throw new Error(`${file} does not hold a 32-byte key`);
  return key;
}

/**
 * A key for another purpose derived from the secrets key (HKDF-SHA-256, the
 * purpose as its info): one secret for the operator to keep, and keys that
 * tell nothing of it or of each other. Used for the end-user log key (the
 * HMAC that names end users in logs), so lines of a data folder stay
 * comparable across restarts, and a copy of the logs alone reverses nothing.
 */
export function deriveFromSecretsKey(secretsKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), `library ${purpose}`, KEY_BYTES));
}

/** The purpose the end-user log key is derived for (a new version would name end users anew). */
export const END_USER_LOG_KEY_PURPOSE = 'end-user log key v1';
