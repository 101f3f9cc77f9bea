import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AesSecretCipher, loadSecretsKey, SECRETS_KEY_FILE } from '../../lambdas/adapters/local/aes-secret-cipher.js';

const dir = mkdtempSync(join(tmpdir(), 'secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the local secret cipher', () => {
  const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

  it('seals to a value that is not the plaintext and opens it for the same tenant only', async () => {
    const cipher = new AesSecretCipher(loadSecretsKey(dir, undefined));
    const sealed = await cipher.seal(secret, { tenantId: 'ten_a' });
    expect(sealed).not.toContain(secret);
    expect(sealed).not.toContain(Buffer.from(secret).toString('base64'));
    expect(await cipher.open(sealed, { tenantId: 'ten_a' })).toBe(secret);
    await expect(cipher.open(sealed, { tenantId: 'ten_b' })).rejects.toThrow();
    expect(await cipher.seal(secret, { tenantId: 'ten_a' })).not.toBe(sealed); // a fresh IV each time
  });

  it('creates its key once, mode 0600, and another key cannot open', async () => {
    const file = join(dir, SECRETS_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const before = readFileSync(file, 'utf8');
    const again = loadSecretsKey(dir, undefined);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const sealed = await new AesSecretCipher(again).seal(secret, { tenantId: 't' });
    const other = new AesSecretCipher(loadSecretsKey(dir, Buffer.alloc(32, 7).toString('base64')));
    await expect(other.open(sealed, { tenantId: 't' })).rejects.toThrow();
  });

  it('takes LIBRARY_SECRETS_KEY when set, and refuses one of the wrong size', () => {
    expect(loadSecretsKey(dir, Buffer.alloc(32, 1).toString('base64'))).toEqual(Buffer.alloc(32, 1));
    expect(() => loadSecretsKey(dir, 'c2hvcnQ=')).toThrow(/32 bytes/);
  });
});
