import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1.';

/**
 * Encrypts webhook header values at rest with AES-256-GCM. The row's identity is the
 * associated data, so a ciphertext copied into another account's row does not decrypt.
 */
export function createHeaderCipher(key: Uint8Array) {
  if (key.length !== 32) throw new Error('the header key must be 32 bytes');
  return {
    seal(headers: Record<string, string>, rowId: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(rowId));
      const body = Buffer.concat([cipher.update(JSON.stringify(headers), 'utf8'), cipher.final()]);
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },

    open(sealed: string, rowId: string): Record<string, string> {
      if (!sealed.startsWith(VERSION)) throw new Error('unknown header encryption format');
      const raw = Buffer.from(sealed.slice(VERSION.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(rowId));
      decipher.setAuthTag(raw.subarray(12, 28));
      const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      return JSON.parse(text) as Record<string, string>;
    },
  };
}

export type HeaderCipher = ReturnType<typeof createHeaderCipher>;
