import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

/** The embed script as built at bundle time, with its precompressed copies. */
export interface WidgetBundle {
  js: string;
  /** base64 of the gzip copy */
  gzip: string;
  /** base64 of the brotli copy */
  br: string;
  /** Strong validator: a hash of the script text, quoted. */
  etag: string;
}

/**
 * Runs at bundle time (imported `with { type: 'macro' }`): builds widget/src into a
 * minified IIFE and inlines it, so `bun test`, `bun run` and the compiled executable all
 * serve the same script without reading files at run time. Bun.build cannot run inside
 * a macro, so the build runs as a subprocess of the same Bun.
 */
export function bundleWidgetScript(): WidgetBundle {
  const script = join(import.meta.dir, '..', '..', '..', 'widget', 'build', 'bundle.ts');
  const proc = Bun.spawnSync([process.execPath, script], { stdout: 'pipe', stderr: 'pipe' });
  if (proc.exitCode !== 0) {
    throw new Error(`widget bundle failed (exit ${proc.exitCode}): ${proc.stderr.toString()}`);
  }
  // A copy with its own ArrayBuffer (stdout is a Buffer over a shared pool).
  const bytes = new Uint8Array(proc.stdout);
  if (bytes.length === 0) throw new Error('widget bundle is empty');
  // Compressed once here, at the highest levels: the server never compresses per request.
  const gzip = Bun.gzipSync(bytes, { level: 9 });
  const br = brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  });
  return {
    js: new TextDecoder().decode(bytes),
    gzip: Buffer.from(gzip).toString('base64'),
    br: br.toString('base64'),
    etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`,
  };
}
