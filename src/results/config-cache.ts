/**
 * Results configs in memory, for the widget's load and submit (docs/results.md). Every
 * load already reads the key's account, and the account row carries `resultsVersion`,
 * which every change of the account's configs bumps in the same write: configs held for
 * that version (or a newer one) are current, on every server, with no read of their own.
 * An account that never saved a config (version 0) costs nothing; one whose version moved
 * costs one read of all its configs, shared by the loads that wait for it.
 */
import type { AccountRow } from '../db/accounts-store.ts';
import type { ResultsConfigSnapshot, ResultsConfigStore } from '../db/results-config-store.ts';
import { hasResults } from '../plans.ts';
import { loadResultsOf, type ResultsConfig } from './config.ts';

/**
 * The load answer's `results`, serialised once. One object per config as held: the widget's
 * routes key what they build from it by its identity.
 */
export interface LoadPart {
  json: string;
}

/** A calculator's config, parsed, with the load answer's part (undefined when off). */
export interface HeldConfig {
  config: ResultsConfig;
  load: LoadPart | undefined;
}

interface Entry {
  version: number;
  configs: Map<string, HeldConfig>;
}

/** Accounts whose configs are held at once; past it the longest-held go first (and are read again when needed). */
const DEFAULT_MAX_ACCOUNTS = 10_000;

type Answer<T> = T | Promise<T>;

export function createResultsConfigCache(options: {
  store: Pick<ResultsConfigStore, 'snapshot'>;
  maxAccounts?: number;
}) {
  const maxAccounts = options.maxAccounts ?? DEFAULT_MAX_ACCOUNTS;
  const held = new Map<string, Entry>();
  const reading = new Map<string, Promise<Entry | undefined>>();

  const keep = (accountId: string, snapshot: ResultsConfigSnapshot): Entry => {
    const known = held.get(accountId);
    // Two reads may cross: the newer version wins.
    if (known && known.version >= snapshot.version) return known;
    const configs = new Map<string, HeldConfig>();
    for (const { calcId, config: json } of snapshot.configs) {
      const config = JSON.parse(json) as ResultsConfig;
      const shown = loadResultsOf(config);
      configs.set(calcId, { config, load: shown && { json: JSON.stringify(shown) } });
    }
    const entry = { version: snapshot.version, configs };
    held.delete(accountId);
    if (held.size >= maxAccounts) {
      const oldest = held.keys().next().value;
      if (oldest !== undefined) held.delete(oldest);
    }
    held.set(accountId, entry);
    return entry;
  };

  const read = (accountId: string): Answer<Entry | undefined> => {
    const pending = reading.get(accountId);
    if (pending) return pending;
    const snapshot = options.store.snapshot(accountId);
    if (!(snapshot instanceof Promise)) return snapshot && keep(accountId, snapshot);
    const promise = snapshot.then((found) => found && keep(accountId, found)).finally(() => reading.delete(accountId));
    reading.set(accountId, promise);
    return promise;
  };

  /** The account's configs as of its row's version: at once when held. */
  const entryOf = (account: AccountRow): Answer<Entry | undefined> => {
    const entry = held.get(account.id);
    if (entry && entry.version >= account.resultsVersion) return entry;
    return read(account.id);
  };

  const heldFor = (entry: Entry | undefined, calcId: string) => entry?.configs.get(calcId);

  return {
    /**
     * A calculator's config for this account row, or undefined when none is saved (on any
     * plan: the caller decides what a plan allows).
     */
    get(account: AccountRow, calcId: string): Answer<HeldConfig | undefined> {
      if (account.resultsVersion === 0) return undefined;
      const entry = entryOf(account);
      return entry instanceof Promise ? entry.then((e) => heldFor(e, calcId)) : heldFor(entry, calcId);
    },

    /**
     * The load answer's `results` when the widget is to offer sending the result (enabled,
     * on a plan with results); else undefined. Every load asks: without a config, or with
     * configs held, it answers at once.
     */
    forLoad(account: AccountRow, calcId: string): Answer<LoadPart | undefined> {
      if (account.resultsVersion === 0 || !hasResults(account.plan)) return undefined;
      const entry = entryOf(account);
      return entry instanceof Promise ? entry.then((e) => heldFor(e, calcId)?.load) : heldFor(entry, calcId)?.load;
    },
  };
}

export type ResultsConfigCache = ReturnType<typeof createResultsConfigCache>;
