/**
 * The static JSON files the script fetches from its own origin (language packs, catalogue
 * templates): under content-hashed names, so each is fetched once per page however many
 * widgets ask for it, and kept in memory for widgets mounted later. A failure is not
 * remembered: the next widget tries again.
 */
/**
 * The file names the build wrote into the script (`read` returns its constant); none when
 * the sources run unbundled, where the constant does not exist. Called once per constant:
 * the bundler writes the whole map at each mention.
 */
export function builtNames(read: () => Record<string, string> | undefined): Record<string, string> {
  try {
    return read() ?? {};
  } catch {
    return {};
  }
}

const kept = new Map<string, unknown>();
const pending = new Map<string, Promise<unknown>>();

/** A file already fetched (as `read` made it), or undefined. */
export const fileInMemory = (url: string): unknown => kept.get(url);

/** The file at `url` as `read` makes it from its JSON; undefined when it fails to load or `read` refuses it. */
export function fetchFile<T>(url: string, read: (json: unknown) => T | undefined): Promise<T | undefined> {
  let file = pending.get(url);
  if (!file) {
    file = fetch(url, { credentials: 'omit', mode: 'cors' })
      .then((response) => (response.ok ? response.json() : undefined))
      .then(read)
      .catch(() => undefined)
      .then((value) => {
        if (value === undefined) pending.delete(url);
        else kept.set(url, value);
        return value;
      });
    pending.set(url, file);
  }
  return file as Promise<T | undefined>;
}
