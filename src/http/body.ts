import { AppError, invalidRequest } from '../errors.ts';

const MAX_BODY_BYTES = 64 * 1024;

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
  /**
   * The route checks a flat schema (string fields, or a list of at most a few strings
   * whose length is checked first) with a compiled check that never descends into a
   * field's value and ignores unknown fields, as the widget's native routes do: then depth is harmless (JSON.parse handles any depth a 64 KiB body can hold) and
   * the depth scan is skipped. Elysia's validators and normalisers walk whatever they get,
   * so its routes keep the limit.
   */
  flatSchema?: boolean;
}

/** Reads and parses a JSON body with a hard byte cap (chunked bodies declare no size). */
export async function parseJsonBody(request: Request, contentType: string, rules: BodyRules): Promise<unknown> {
  return parseJsonText(await readBodyText(request, rules), contentType, rules);
}

/**
 * The body as text, within the cap. Not `async`: for a declared length it hands back
 * Bun's own promise, so a hot route awaits one promise instead of a chain of them.
 */
export function readBodyText(request: Request, rules: BodyRules): Promise<string> | string {
  // A declared length was already checked against the cap (413 before reading), and
  // HTTP framing stops the read there: read it in one call, without materialising
  // `request.body` as a stream. Only chunked bodies stream.
  const length = request.headers.get('content-length');
  if (length === null) return readChunked(request);
  if (!isDeclaredWithinCap(length)) throw payloadTooLarge();
  if (length === '0') return '';
  return rules.widget ? request.text() : request.bytes().then(decodeUtf8);
}

/** Parses a body read by {@link readBodyText}; `undefined` for an empty body. */
export function parseJsonText(text: string, contentType: string, rules: BodyRules): unknown {
  if (text.length === 0) return undefined;
  if (rules.widget && text.includes('\uFFFD')) throw notUtf8();
  // The widget's own spelling first: this runs on every widget call.
  const type =
    contentType === 'application/json' ? contentType : (contentType.split(';')[0]?.trim().toLowerCase() ?? '');
  if (type !== 'application/json' && !(rules.widget && type === 'text/plain')) {
    throw invalidRequest(
      `Send the body as JSON with Content-Type: application/json${rules.widget ? ' (or text/plain)' : ''}.`,
    );
  }
  if (!rules.flatSchema && mayNestDeeperThan(text, MAX_DEPTH) && nestingExceeds(text, MAX_DEPTH))
    throw invalidRequest(`The request body nests deeper than ${MAX_DEPTH} levels.`);
  try {
    return JSON.parse(text);
  } catch {
    throw invalidRequest('The request body is not valid JSON.');
  }
}

/** No route takes bodies this deep; deeper ones would exhaust a validator's stack. */
const MAX_DEPTH = 32;

/**
 * Whether the text has more than `limit` opening brackets at all (strings included): a
 * cheap native search that spares typical small bodies the character-by-character scan.
 */
function mayNestDeeperThan(text: string, limit: number): boolean {
  let openers = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1))
      if (++openers > limit) return true;
  }
  return false;
}

function nestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
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
