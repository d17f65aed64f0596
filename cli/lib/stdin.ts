/** Reads all of standard input as text (for `--password-stdin`, `--header-stdin`). */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

/** The first line of standard input without its line ending: a password piped in. */
export async function readSecretLine(): Promise<string> {
  const text = await readStdin();
  return text.split(/\r?\n/)[0] ?? '';
}
