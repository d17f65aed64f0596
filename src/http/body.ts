import { AppError, invalidRequest } from '../errors.ts';

export const MAX_BODY_BYTES = 64 * 1024;

/** 413 before anything is read when the declared size is already too large. */
export function declaredTooLarge(request: Request): boolean {
  const length = request.headers.get('content-length');
  return length !== null && !isDeclaredWithinCap(length);
}

function isDeclaredWithinCap(length: string): boolean {
  return /^\d+$/.test(length) && Number(length) <= MAX_BODY_BYTES;
}

export function payloadTooLarge(): AppError {
  return new AppError('payload_too_large', `Request bodies are limited to ${MAX_BODY_BYTES / 1024} KiB.`);
}

/** Where a body comes from: a widget route (any page, ASCII tokens) or an owner route. */
export interface BodyRules {
  /**
   * Widget routes: `text/plain` is accepted (the widget sends a CORS "simple request" so
   * browsers skip the preflight), and the body is decoded the fast way. Their fields are
   * a key, an origin and a calculator id, where U+FFFD is never valid, so a body holding
   * one is refused as invalid UTF-8 (what a bad byte decodes to) instead of decoding twice.
   */
  widget: boolean;
}

/** Reads and parses a JSON body with a hard byte cap (chunked bodies declare no size). */
export async function parseJsonBody(request: Request, contentType: string, rules: BodyRules): Promise<unknown> {
  // The widget's own spelling first: this runs on every widget call.
  const type = contentType === 'application/json' ? contentType : (contentType.split(';')[0]?.trim().toLowerCase() ?? '');
  const accepted = type === 'application/json' || (rules.widget && type === 'text/plain');
  const text = await readCapped(request, rules.widget);
  if (text.length === 0) return undefined;
  if (rules.widget && text.includes('\uFFFD')) throw notUtf8();
  if (!accepted) {
    throw invalidRequest(`Send the body as JSON with Content-Type: application/json${rules.widget ? ' (or text/plain)' : ''}.`);
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

/** The body as text. Not `async`: the common case hands back Bun's own promise. */
function readCapped(request: Request, replacementRefused: boolean): Promise<string> | string {
  // A declared length was already checked against the cap (413 before reading), and
  // HTTP framing stops the read there: read it in one call, without materialising
  // `request.body` as a stream. Only chunked bodies stream.
  const length = request.headers.get('content-length');
  if (length === null) return readChunked(request);
  if (!isDeclaredWithinCap(length)) throw payloadTooLarge();
  if (length === '0') return '';
  return replacementRefused ? request.text() : request.bytes().then(decodeUtf8);
}

async function readChunked(request: Request): Promise<string> {
  if (!request.body) return '';
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
    throw notUtf8();
  }
}

const notUtf8 = () => invalidRequest('The request body is not valid UTF-8.');
