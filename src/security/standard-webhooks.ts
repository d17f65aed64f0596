import { createHmac, randomBytes } from 'node:crypto';

/**
 * Signing by the Standard Webhooks convention (docs/results.md, "Verifying a delivery"):
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the
 * bytes the `whsec_` secret's base64 stands for, so owners verify with the convention's own
 * libraries.
 */

const PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** A new endpoint secret: `whsec_` and the base64 of 32 random bytes. */
export function newEndpointSecret(): string {
  return PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The headers that sign one attempt: every active secret signs (the newest first). */
export function signedHeaders(
  secrets: readonly string[],
  message: { id: string; timestampSeconds: number; body: string },
): Record<string, string> {
  const timestamp = String(Math.floor(message.timestampSeconds));
  const signed = `${message.id}.${timestamp}.${message.body}`;
  const signatures = secrets.map(
    (secret) =>
      `v1,${createHmac('sha256', Buffer.from(secret.slice(PREFIX.length), 'base64'))
        .update(signed)
        .digest('base64')}`,
  );
  return {
    'webhook-id': message.id,
    'webhook-timestamp': timestamp,
    // Space-separated, as the convention lists several signatures.
    'webhook-signature': signatures.join(' '),
    'content-type': 'application/json',
  };
}

/** The last four characters, which the API shows so that an owner can tell secrets apart. */
export const lastFour = (secret: string): string => secret.slice(-4);
