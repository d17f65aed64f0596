import { raceAbort } from './abort.ts';

/** Result of {@link readCappedBody}. */
export type BodyResult =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; outcome: 'too_large' | 'invalid_json' | 'timeout' | 'unreachable'; reason: string };

// Chunks as fetch produces them and as DecompressionStream accepts them.
type Bytes = Uint8Array<ArrayBuffer>;

type Decoding = 'identity' | 'gzip' | 'deflate';

function decodingOf(contentEncoding: string | null): Decoding | null {
  const value = (contentEncoding ?? '').trim().toLowerCase();
  if (value === '' || value === 'identity') return 'identity';
  if (value === 'gzip' || value === 'x-gzip') return 'gzip';
  if (value === 'deflate') return 'deflate';
  return null; // br, zstd, stacked encodings ("gzip, gzip"), anything unknown
}

/** Wraps a stream so that its own failures (the network) can be told from decode errors. */
function tapSource(body: ReadableStream<Bytes>, state: { sourceFailed: boolean }): ReadableStream<Bytes> {
  const reader = body.getReader();
  return new ReadableStream<Bytes>(
    {
      async pull(controller) {
        try {
          const chunk = await reader.read();
          if (chunk.done) controller.close();
          else controller.enqueue(chunk.value);
        } catch (error) {
          state.sourceFailed = true;
          controller.error(error);
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * Reads a response body of at most `maxBytes`, counting bytes after decoding (and
 * before it, on the wire), and cancels the stream as soon as either count passes the
 * cap or the signal aborts. gzip and deflate are decoded here in JavaScript; any other
 * Content-Encoding is refused as `invalid_json`, since the body cannot be read as JSON.
 */
export async function readCappedBody(
  response: Response,
  options: { maxBytes: number; signal: AbortSignal },
): Promise<BodyResult> {
  const decoding = decodingOf(response.headers.get('content-encoding'));
  if (decoding === null) {
    void response.body?.cancel().catch(() => {});
    return { ok: false, outcome: 'invalid_json', reason: 'unsupported Content-Encoding' };
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  // Content-Length counts wire bytes, which are capped as well: a declared length
  // past the cap fails before any byte is read.
  if (Number.isFinite(declared) && declared > options.maxBytes) {
    void response.body?.cancel().catch(() => {});
    return { ok: false, outcome: 'too_large', reason: `Content-Length ${declared} exceeds ${options.maxBytes}` };
  }
  // Before touching `response.body`, which would turn the body into a JS stream.
  if (decoding === 'identity' && Number.isFinite(declared) && !response.headers.has('transfer-encoding')) {
    return readDeclaredLength(response, options);
  }
  const body = response.body;
  if (body === null) return { ok: true, bytes: new Uint8Array(0) };

  const state = { sourceFailed: false, wireBytes: 0 };
  let stream = tapSource(body, state).pipeThrough(
    new TransformStream<Bytes, Bytes>({
      transform(chunk, controller) {
        state.wireBytes += chunk.byteLength;
        // Also cap compressed bytes: a stream of empty deflate blocks decodes to
        // nothing and would otherwise keep the connection busy for the whole budget.
        if (state.wireBytes > options.maxBytes) controller.error(new RangeError('too large on the wire'));
        else controller.enqueue(chunk);
      },
    }),
  );
  // Bun's automatic decompression inflates in the background even after the stream
  // is cancelled (a decompression bomb would still be inflated), so fetch runs with `decompress: false` and the
  // decoding happens here, where every decoded chunk is counted as it appears.
  if (decoding !== 'identity') stream = stream.pipeThrough(new DecompressionStream(decoding));

  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const chunk = await raceAbort(reader.read(), options.signal);
      if (chunk.done) break;
      total += chunk.value.byteLength;
      if (total > options.maxBytes) {
        void reader.cancel().catch(() => {});
        return { ok: false, outcome: 'too_large', reason: `body exceeds ${options.maxBytes} bytes` };
      }
      chunks.push(chunk.value);
    }
  } catch {
    void reader.cancel().catch(() => {});
    if (options.signal.aborted)
      return { ok: false, outcome: 'timeout', reason: 'body not complete within the time budget' };
    if (state.wireBytes > options.maxBytes)
      return { ok: false, outcome: 'too_large', reason: `body exceeds ${options.maxBytes} bytes` };
    if (state.sourceFailed)
      return { ok: false, outcome: 'unreachable', reason: 'connection failed while reading the body' };
    return { ok: false, outcome: 'invalid_json', reason: 'body could not be decoded' };
  }
  return { ok: true, bytes: concat(chunks, total) };
}

/**
 * The common case, an uncompressed body of a declared length within the cap, read in
 * one call: HTTP framing stops the read at the declared length and the fetch's signal
 * aborts it, so the cap and the time budget hold without a stream per chunk.
 */
async function readDeclaredLength(
  response: Response,
  options: { maxBytes: number; signal: AbortSignal },
): Promise<BodyResult> {
  try {
    // The fetch's own signal aborts this read (tested: a dripping body ends at the budget).
    const bytes = await response.bytes();
    if (bytes.byteLength > options.maxBytes)
      return { ok: false, outcome: 'too_large', reason: `body exceeds ${options.maxBytes} bytes` };
    return { ok: true, bytes };
  } catch {
    void response.body?.cancel().catch(() => {});
    if (options.signal.aborted)
      return { ok: false, outcome: 'timeout', reason: 'body not complete within the time budget' };
    return { ok: false, outcome: 'unreachable', reason: 'connection failed while reading the body' };
  }
}
