/**
 * Which calculator a calcId names for an account, ready to serve: a catalogue template,
 * or the account's own calculator as last published (docs/calculators.md, "Drafts and
 * versions"). The widget's routes (load, verify, preview), the owner's evaluate route and
 * the widget config call it: it answers as they need, without a promise on SQLite.
 *
 * Custom calculators are cached in memory per account and id with the published version
 * they hold, parsed, compiled and serialised once. Every call still makes one point read
 * (`published`, told which version is held so that it sends the text only when another is
 * published), so a publish on any server sharing the database is seen by the next call on
 * every server. On SQLite that read, and so the whole answer, comes without a promise.
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

export type CalculatorResolver = (
  accountId: string,
  calcId: string,
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

  function settle(key: string, held: Entry | undefined, found: PublishedLookup | undefined) {
    if (!found) {
      forget(key);
      return undefined;
    }
    if (found.definition === null && held && held.generation === found.generation && held.version === found.version) {
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
    remember(key, { generation: found.generation, version: found.version, resolved });
    return resolved;
  }

  return (accountId, calcId) => {
    const template = catalogue.get(calcId);
    if (template) return template;
    // Neither part holds a line break: account ids are generated, calculator ids a pattern.
    const key = `${accountId}\n${calcId}`;
    const held = cache.get(key);
    const found = store.published(accountId, calcId, held && { generation: held.generation, version: held.version });
    return found instanceof Promise ? found.then((lookup) => settle(key, held, lookup)) : settle(key, held, found);
  };
}
