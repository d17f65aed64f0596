/** Content negotiation for the precompressed script: br, then gzip, then identity. */
export type ScriptEncoding = 'br' | 'gzip' | 'identity';

/** Each listed coding with its q-value (1 when not given). */
function qualities(header: string): Map<string, number> {
  const listed = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    if (!name) continue;
    const q = params.find((param) => param.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    listed.set(name, Number.isFinite(value) ? value : 0);
  }
  return listed;
}

/** br > gzip > identity: our preference among what the client accepts (q > 0; `*` stands for the unlisted). */
export function chooseEncoding(acceptEncoding: string | null): ScriptEncoding {
  if (!acceptEncoding) return 'identity';
  const listed = qualities(acceptEncoding);
  const accepts = (name: string) => (listed.get(name) ?? listed.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip') || (listed.get('x-gzip') ?? 0) > 0) return 'gzip';
  return 'identity';
}

/** Whether If-None-Match matches our ETag (weak comparison, as RFC 9110 asks for GET). */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
