/**
 * The precompressed copies the server sends, made once at build time at the highest
 * levels: gzip by Zopfli (a few percent smaller than zlib's level 9, and any gzip
 * decoder reads it) and brotli at quality 11.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants } from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';

/** A served file: its text, base64 of its gzip and brotli copies, and a strong ETag. */
export interface BuiltFile {
  text: string;
  gzip: string;
  br: string;
  etag: string;
}

export async function compressed(text: string): Promise<BuiltFile> {
  const bytes = new TextEncoder().encode(text);
  const gzip = await gzipAsync(bytes, { numiterations: 15 });
  const br = brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
  return {
    text,
    gzip: Buffer.from(gzip).toString('base64'),
    br: br.toString('base64'),
    etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`,
  };
}
