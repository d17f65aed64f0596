import { AppError, invalidRequest } from '../errors.ts';

export const MAX_BODY_BYTES = 64 * 1024;

/** 413 before anything is read when the declared size is already too large. */
export function declaredTooLarge(request: Request): boolean {
  const length = request.headers.get('content-length');
  return length !== null && (!/^\d+$/.test(length) || Number(length) > MAX_BODY_BYTES);
}

export function payloadTooLarge(): AppError {
  return new AppError('payload_too_large', `Request bodies are limited to ${MAX_BODY_BYTES / 1024} KiB.`);
}

/**
 * Reads and parses a JSON body with a hard byte cap (chunked bodies declare no size).
 * `text/plain` is accepted where `allowTextPlain` is set: the widget sends a CORS
 * "simple request" so browsers skip the preflight.
 */
export async function parseJsonBody(request: Request, contentType: string, allowTextPlain: boolean): Promise<unknown> {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const accepted = type === 'application/json' || (allowTextPlain && type === 'text/plain');
  const text = await readCapped(request);
  if (text.length === 0) return undefined;
  if (!accepted) {
    throw invalidRequest(`Send the body as JSON with Content-Type: application/json${allowTextPlain ? ' (or text/plain)' : ''}.`);
  }
  if (nestingExceeds(text, MAX_DEPTH)) throw invalidRequest(`The request body nests deeper than ${MAX_DEPTH} levels.`);
  try {
    return JSON.parse(text);
  } catch {
    throw invalidRequest('The request body is not valid JSON.');
  }
}

/** No route takes bodies this deep; deeper ones would exhaust the validator's stack. */
const MAX_DEPTH = 32;

function nestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

async function readCapped(request: Request): Promise<string> {
  if (!request.body) return '';
  // A declared length was already checked against the cap (413 before reading), and
  // HTTP framing stops the read there: read it in one call. Only chunked bodies stream.
  if (request.headers.has('content-length') && !declaredTooLarge(request)) return decodeUtf8(await request.bytes());
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw payloadTooLarge();
    }
    chunks.push(value);
  }
  return decodeUtf8(Buffer.concat(chunks));
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw invalidRequest('The request body is not valid UTF-8.');
  }
}
