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

/** A file as a bundle macro inlines it: its text, its gzip and brotli copies (base64), its ETag. */
export interface PrecompressedFile {
  text: string;
  gzip: string;
  br: string;
  etag: string;
}

/** A precompressed file ready to answer: its bytes in each encoding, and its ETag. */
export interface ServedFile {
  etag: string;
  bodies: Record<ScriptEncoding, Uint8Array<ArrayBuffer>>;
}

const fromBase64 = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from(text, 'base64'));

/** Decodes a file's copies once, when the server starts. */
export function servedFileOf(file: PrecompressedFile): ServedFile {
  return {
    etag: file.etag,
    bodies: { identity: new TextEncoder().encode(file.text), gzip: fromBase64(file.gzip), br: fromBase64(file.br) },
  };
}

/**
 * A served file's answer: 304 when If-None-Match holds its ETag, else its body in the best
 * encoding the client accepts. `headers` (caching, policies) go on both; the ETag and
 * `Vary: Accept-Encoding` are added here.
 */
export function answerFile(
  request: Request,
  file: ServedFile,
  contentType: string,
  headers: Record<string, string>,
): Response {
  const answer: Record<string, string> = { ...headers, etag: file.etag, vary: 'Accept-Encoding' };
  if (matchesEtag(request.headers.get('if-none-match'), file.etag))
    return new Response(null, { status: 304, headers: answer });
  const encoding = chooseEncoding(request.headers.get('accept-encoding'));
  if (encoding !== 'identity') answer['content-encoding'] = encoding;
  answer['content-type'] = contentType;
  return new Response(file.bodies[encoding], { headers: answer });
}
