import { describe, expect, test } from 'bun:test';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib';
import { guardedFetch } from '../../../src/webhook/guarded-fetch.ts';
import { ALLOWED, deps, trackedTargets } from './webhook-test-kit.ts';

const target = trackedTargets();

const MAX = 256 * 1024;
const encoder = new TextEncoder();

/** A JSON object whose UTF-8 form is exactly `size` bytes. */
function jsonOfSize(size: number): Uint8Array<ArrayBuffer> {
  const frame = '{"pad":""}';
  return encoder.encode(`{"pad":"${'x'.repeat(size - frame.length)}"}`);
}

/** Streams `bytes` in chunks with no Content-Length (chunked transfer). */
function chunked(bytes: Uint8Array, chunk = 16 * 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.subarray(offset, offset + chunk));
      offset += chunk;
    },
  });
}

/**
 * A gzip member that never ends: a header, then empty non-final stored deflate
 * blocks forever. It decodes to nothing, so only a cap on wire bytes stops it before
 * the time budget does.
 */
function endlessEmptyBlocks(): ReadableStream<Uint8Array> {
  const block = [0x00, 0x00, 0x00, 0xff, 0xff];
  const chunk = new Uint8Array(16 * 1024 - ((16 * 1024) % block.length));
  for (let offset = 0; offset < chunk.length; offset += block.length) chunk.set(block, offset);
  let headerSent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]));
      }
      controller.enqueue(chunk);
    },
  });
}

describe('size cap', () => {
  test.each([
    ['exactly the cap, Content-Length', () => new Response(jsonOfSize(MAX)), 'ok'],
    ['one byte over, Content-Length', () => new Response(jsonOfSize(MAX + 1)), 'too_large'],
    ['exactly the cap, chunked', () => new Response(chunked(jsonOfSize(MAX))), 'ok'],
    ['one byte over, chunked', () => new Response(chunked(jsonOfSize(MAX + 1))), 'too_large'],
    ['10 MB, Content-Length', () => new Response(jsonOfSize(10 * 1024 * 1024)), 'too_large'],
    ['10 MB, chunked', () => new Response(chunked(jsonOfSize(10 * 1024 * 1024))), 'too_large'],
  ])('%s -> %s', async (_label, handler, outcome) => {
    const server = target(ALLOWED, handler);
    const result = await guardedFetch(server.url(), {}, deps({ timeoutMs: 2000 }));
    expect(result).toMatchObject({ outcome, httpStatus: 200 });
  });

  test('a smaller maxBytes is honoured', async () => {
    const server = target(ALLOWED, () => new Response(chunked(jsonOfSize(101), 7)));
    expect((await guardedFetch(server.url(), {}, deps({ maxBytes: 100 }))).outcome).toBe('too_large');
    expect((await guardedFetch(server.url(), {}, deps({ maxBytes: 101 }))).outcome).toBe('ok');
  });
});

describe('Content-Encoding: decoded in JS, decoded bytes counted', () => {
  const small = encoder.encode('{"weight":70}');
  // Compresses to a few hundred bytes, inflates past the cap: only counting decoded
  // bytes catches it.
  const bigJson = jsonOfSize(MAX + 1024);

  test.each([
    ['gzip', 'gzip', gzipSync(small), 'ok'],
    ['x-gzip', 'x-gzip', gzipSync(small), 'ok'],
    ['upper-case GZIP', 'GZIP', gzipSync(small), 'ok'],
    ['deflate (zlib)', 'deflate', deflateSync(small), 'ok'],
    ['identity', 'identity', small, 'ok'],
    ['gzip inflating past the cap', 'gzip', gzipSync(bigJson), 'too_large'],
    ['deflate inflating past the cap', 'deflate', deflateSync(bigJson), 'too_large'],
    ['raw deflate labelled deflate', 'deflate', deflateRawSync(small), 'invalid_json'],
    ['corrupt gzip', 'gzip', new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7, 8]), 'invalid_json'],
    ['plain text labelled gzip', 'gzip', small, 'invalid_json'],
    ['br is refused', 'br', brotliCompressSync(small), 'invalid_json'],
    ['zstd is refused', 'zstd', zstdCompressSync(small), 'invalid_json'],
    ['stacked gzip, gzip is refused', 'gzip, gzip', gzipSync(gzipSync(small)), 'invalid_json'],
    ['unknown coding is refused', 'compress', small, 'invalid_json'],
  ])('%s -> %s', async (_label, encoding, body, outcome) => {
    const server = target(ALLOWED, () => new Response(body, { headers: { 'Content-Encoding': encoding } }));
    const result = await guardedFetch(server.url(), {}, deps({ timeoutMs: 2000 }));
    expect(result).toMatchObject({ outcome, httpStatus: 200 });
    if (outcome === 'ok') expect(result.body).toEqual({ weight: 70 });
  });

  test('precondition: the inflating rows are small on the wire', () => {
    expect(gzipSync(bigJson).length).toBeLessThan(MAX);
    expect(deflateSync(bigJson).length).toBeLessThan(MAX);
  });

  test('a gzip bomb (64 MB of zeros) -> too_large, fast', async () => {
    const bomb = gzipSync(new Uint8Array(64 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(MAX); // the wire cap alone would not catch it
    const server = target(ALLOWED, () => new Response(chunked(bomb), { headers: { 'Content-Encoding': 'gzip' } }));
    const { outcome } = await guardedFetch(server.url(), {}, deps({ timeoutMs: 2000 }));
    expect(outcome).toBe('too_large');
  });

  test('compressed bytes are capped too: empty deflate blocks forever -> too_large, long before the budget', async () => {
    const server = target(
      ALLOWED,
      () => new Response(endlessEmptyBlocks(), { headers: { 'Content-Encoding': 'gzip' } }),
    );
    const result = await guardedFetch(server.url(), {}, deps({ timeoutMs: 2000 }));
    expect(result.outcome).toBe('too_large');
    expect(result.durationMs).toBeLessThan(1000);
  });
});
