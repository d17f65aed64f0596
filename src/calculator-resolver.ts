/**
 * Which calculator a calcId names for an account, ready to serve: a catalogue template,
 * or the account's own calculator as last published (docs/calculators.md, "Drafts and
 * versions"). The widget's routes (load, verify, preview), the owner's evaluate route and
 * the widget config call it: it answers as they need, without a promise on SQLite.
 *
 * Custom calculators are cached in memory per account and id with the published version
 * they hold, parsed, compiled and serialised once. Every call still learns whether another
 * version is published, so a publish on any server sharing the database is seen by the
 * next call on every server. The widget's routes learn it from their account lookup, which
 * hands over a `token` (`WidgetLookup.calculatorToken`): a calculator held under the same
 * token is current and answered without a read. Otherwise, and for every other caller, one
 * point read (`published`, told which version is held so that it sends the text only when
 * another is published). On SQLite that read, and so the whole answer, comes without a promise.
 */
import { templates } from './calculators/templates/index.ts';
import type { Template } from './calculators/templates/template.ts';
import type { CustomCalculatorsStore, PublishedLookup } from './db/custom-calculators-store.ts';
import { type CompiledDefinition, compile } from './definition/compile.ts';
import type { Definition } from './definition/types.ts';

export interface ResolvedCalculator {
  id: string;
  /** The catalogue template it is, or undefined for an account's own calculator. */
  template?: Template;
  /** The published version of an account's own calculator; null for a template. */
  version: number | null;
  definition: Definition;
  compiled: CompiledDefinition;
  /** The public JSON of the definition, serialised once. */
  json: string;
}

/**
 * `token`, when the caller has one (the widget's account lookup: `WidgetLookup.calculatorToken`):
 * a calculator held under the same token is answered without a read; null means the account
 * has no published calculator under `calcId`.
 */
export type CalculatorResolver = (
  accountId: string,
  calcId: string,
  token?: string | number | null,
) => ResolvedCalculator | undefined | Promise<ResolvedCalculator | undefined>;

export interface ResolverOptions {
  store: Pick<CustomCalculatorsStore, 'published'>;
  /** The public JSON of a definition; by default the definition itself, as stored. */
  serialise?: (definition: Definition, template?: Template) => string;
  /** Characters of JSON the cache of custom calculators holds at most; the least recently used go first. */
  maxCachedChars?: number;
}

/** 16 M characters: some thousands of typical definitions, a few hundred of the largest. */
const DEFAULT_MAX_CACHED_CHARS = 16 * 1024 * 1024;

interface Entry {
  generation: string;
  version: number;
  /** The token it was last read under (undefined when read for a caller without one). */
  token: string | number | undefined;
  resolved: ResolvedCalculator;
}

function compiled(definition: Definition): CompiledDefinition | undefined {
  const result = compile(definition);
  return result.ok ? result.compiled : undefined;
}

export function createCalculatorResolver(options: ResolverOptions): CalculatorResolver {
  const { store } = options;
  const maxChars = options.maxCachedChars ?? DEFAULT_MAX_CACHED_CHARS;
  // A Map, not an object: ids like "__proto__" must find nothing.
  const catalogue = new Map<string, ResolvedCalculator>();
  for (const template of templates) {
    const { definition } = template;
    const ready = compiled(definition);
    if (!ready) throw new Error(`template ${definition.id} does not compile`);
    const json = options.serialise?.(definition, template) ?? JSON.stringify(definition);
    catalogue.set(definition.id, { id: definition.id, template, version: null, definition, compiled: ready, json });
  }

  // Insertion order is recency: a hit moves its entry to the end, eviction takes the first.
  const cache = new Map<string, Entry>();
  let cachedChars = 0;
  const forget = (key: string) => {
    const entry = cache.get(key);
    if (!entry) return;
    cache.delete(key);
    cachedChars -= entry.resolved.json.length;
  };
  const remember = (key: string, entry: Entry) => {
    forget(key);
    if (entry.resolved.json.length > maxChars) return;
    cache.set(key, entry);
    cachedChars += entry.resolved.json.length;
    for (const oldest of cache.keys()) {
      if (cachedChars <= maxChars) break;
      forget(oldest);
    }
  };

  function settle(
    key: string,
    held: Entry | undefined,
    found: PublishedLookup | undefined,
    token: string | number | undefined,
  ) {
    if (!found) {
      forget(key);
      return undefined;
    }
    if (found.definition === null && held && held.generation === found.generation && held.version === found.version) {
      held.token = token;
      cache.delete(key);
      cache.set(key, held);
      return held.resolved;
    }
    if (found.definition === null) return undefined;
    const definition = JSON.parse(found.definition) as Definition;
    // Valid when published; one that a later release's compiler refuses is not served.
    const ready = compiled(definition);
    if (!ready) {
      forget(key);
      return undefined;
    }
    const json = options.serialise?.(definition) ?? found.definition;
    const resolved: ResolvedCalculator = {
      id: definition.id,
      version: found.version,
      definition,
      compiled: ready,
      json,
    };
    remember(key, { generation: found.generation, version: found.version, token, resolved });
    return resolved;
  }

  return (accountId, calcId, token) => {
    const template = catalogue.get(calcId);
    if (template) return template;
    // Neither part holds a line break: account ids are generated, calculator ids a pattern.
    const key = `${accountId}\n${calcId}`;
    if (token === null) {
      forget(key);
      return undefined;
    }
    const held = cache.get(key);
    if (held !== undefined && token !== undefined && held.token === token) {
      cache.delete(key);
      cache.set(key, held);
      return held.resolved;
    }
    // The entry has what `published` needs to know of it (its generation and version).
    const found = store.published(accountId, calcId, held);
    return found instanceof Promise
      ? found.then((lookup) => settle(key, held, lookup, token))
      : settle(key, held, found, token);
  };
}
