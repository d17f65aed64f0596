import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1.';

/**
 * Encrypts secrets at rest (webhook header values, signing secrets) with AES-256-GCM.
 * The row's identity is the associated data, so a ciphertext copied into another
 * account's row does not decrypt.
 */
export function createHeaderCipher(key: Uint8Array) {
  if (key.length !== 32) throw new Error('the header key must be 32 bytes');

  function sealText(text: string, rowId: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(rowId));
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  function openText(sealed: string, rowId: string): string {
    if (!sealed.startsWith(VERSION)) throw new Error('unknown header encryption format');
    const raw = Buffer.from(sealed.slice(VERSION.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(rowId));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }

  return {
    sealText,
    openText,
    seal: (headers: Record<string, string>, rowId: string): string => sealText(JSON.stringify(headers), rowId),
    open: (sealed: string, rowId: string): Record<string, string> =>
      JSON.parse(openText(sealed, rowId)) as Record<string, string>,
  };
}

/** The identity of a config row, sealed into its ciphertext as associated data. */
export const rowId = (accountId: string, calcId: string): string => `${accountId}/${calcId}`;

export type HeaderCipher = ReturnType<typeof createHeaderCipher>;
