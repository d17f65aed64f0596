/**
 * A word for a POSIX shell: bare when it holds nothing the shell reads, else in single
 * quotes. For commands the server shows people to paste (an owner's email can hold `$(…)`).
 */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
