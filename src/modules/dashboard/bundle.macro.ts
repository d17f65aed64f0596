import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { cachedBundle } from '../../bundle-cache.ts';

/** One dashboard file as built at bundle time, with its precompressed copies. */
export interface DashboardAsset {
  /** The file name with its content hash (`main-1a2b3c.js`). */
  name: string;
  type: string;
  /** `entry-point` files are linked from the page; `chunk`s are imported on demand. */
  kind: string;
  text: string;
  /** base64 of the gzip copy */
  gzip: string;
  /** base64 of the brotli copy */
  br: string;
  etag: string;
}

/**
 * Runs at bundle time (imported `with { type: 'macro' }`): builds dashboard/src into
 * hashed, minified files and inlines them, so `bun test`, `bun run` and the compiled
 * executable all serve the same files without reading anything at run time. Bun.build
 * cannot run inside a macro, so the build runs as a subprocess of the same Bun, and only
 * when a source changed (`cachedBundle`).
 */
export function bundleDashboard(): DashboardAsset[] {
  return cachedBundle('dashboard', buildDashboard);
}

function buildDashboard(): DashboardAsset[] {
  const script = join(import.meta.dir, '..', '..', '..', 'dashboard', 'build', 'bundle.ts');
  const proc = Bun.spawnSync([process.execPath, script], { stdout: 'pipe', stderr: 'pipe' });
  if (proc.exitCode !== 0) {
    throw new Error(`dashboard bundle failed (exit ${proc.exitCode}): ${proc.stderr.toString()}`);
  }
  const built = JSON.parse(proc.stdout.toString()) as { name: string; type: string; kind: string; text: string }[];
  if (built.length === 0) throw new Error('dashboard bundle is empty');
  return built.map(({ name, type, kind, text }) => {
    const bytes = new TextEncoder().encode(text);
    const br = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    return {
      name,
      type,
      kind,
      text,
      gzip: Buffer.from(Bun.gzipSync(bytes, { level: 9 })).toString('base64'),
      br: br.toString('base64'),
      etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`,
    };
  });
}
