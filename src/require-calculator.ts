import type { CalculatorResolver } from './calculator-resolver.ts';
import { CALC_ID_PATTERN } from './definition/id.ts';
import { getTemplate, type Template } from './calculators/index.ts';
import type { CustomCalculatorsStore } from './db/custom-calculators-store.ts';
import type { Definition } from './definition/types.ts';
import { AppError } from './errors.ts';

/** 404 `calculator_not_found`: an unknown id, another account's, a draft never published, a deleted one alike. */
export const calculatorNotFound = (calcId: string) =>
  new AppError('calculator_not_found', `There is no calculator "${calcId}".`);

/** The catalogue calculator with this id, or 404 `calculator_not_found` (routes that know no account). */
export function requireCalculator(calcId: string): Template {
  const calculator = getTemplate(calcId);
  if (!calculator) throw calculatorNotFound(calcId);
  return calculator;
}

/**
 * The calculator `calcId` names for an account's own routes (widget config, test-webhook):
 * a template, or one of the account's own in any state, as its published version or, never
 * published, its draft. An owner configures a calculator's webhook before publishing it, so
 * its first visitors are pre-filled (docs/calculators.md, "Pre-fill"). Otherwise 404.
 */
export async function requireAccountCalculator(
  deps: { resolveCalculator: CalculatorResolver; calculators: Pick<CustomCalculatorsStore, 'find'> },
  accountId: string,
  calcId: string,
): Promise<{ definition: Definition }> {
  const served = await deps.resolveCalculator(accountId, calcId);
  if (served) return served;
  const record = await deps.calculators.find(accountId, calcId);
  if (!record) throw calculatorNotFound(calcId);
  return { definition: JSON.parse(record.row.draft) as Definition };
}

/** The answer of {@link CalculatorIds.exists}: at once when known, else once the account's ids are read. */
type Exists = boolean | Promise<boolean>;

export interface CalculatorIds {
  /**
   * Whether `calcId` names a calculator that `accountId` may show: a template, or one of
   * the account's own (published or not). The one test of "this calculator exists" for
   * counts keyed by an id a caller chose (refused widget calls), so strangers cannot make
   * an owner's usage store ids of their making.
   */
  exists(accountId: string, calcId: string): Exists;
  /** Drops what is known of an account's ids: this server created or deleted one of its calculators. */
  forget(accountId: string): void;
}

export interface CalculatorIdsOptions {
  store: Pick<CustomCalculatorsStore, 'ids'>;
  now: () => number;
  /** Told when the ids cannot be read (the refusal is then not counted). */
  onError?: (error: unknown) => void;
}

/** How long an account's ids are used before they are read again (another server's creations). */
const REMEMBER_MS = 60_000;
/** Accounts whose ids are remembered at once; past it the longest known go first. */
const MAX_ACCOUNTS = 10_000;
const CALC_ID = new RegExp(CALC_ID_PATTERN);

interface Known {
  ids: ReadonlySet<string> | Promise<ReadonlySet<string>>;
  until: number;
}

/**
 * The ids of accounts' own calculators, as refusals need them. Refused calls are strangers'
 * to make (a flood over the per-client limit is counted too), so no refusal reads a
 * definition or makes a read of its own: a template is known at once, an id that cannot be
 * a calculator's is not read for, and an account's ids (a short list: its plan's limit) are
 * read at most once a minute and remembered for at most 10,000 accounts, so a flood of
 * refusals under made-up ids costs at most one read per account and minute.
 */
export function createCalculatorIds(options: CalculatorIdsOptions): CalculatorIds {
  const { store } = options;
  // Insertion order is age: a read (re)inserts its account at the end.
  const accounts = new Map<string, Known>();

  function idsOf(accountId: string): Known['ids'] {
    const now = options.now();
    const known = accounts.get(accountId);
    if (known && known.until > now) return known.ids;
    accounts.delete(accountId);
    for (const oldest of accounts.keys()) {
      if (accounts.size < MAX_ACCOUNTS) break;
      accounts.delete(oldest);
    }
    const entry: Known = { ids: new Set(), until: now + REMEMBER_MS };
    entry.ids = store.ids(accountId).then(
      (ids) => {
        const set = new Set(ids);
        if (accounts.get(accountId) === entry) entry.ids = set;
        return set;
      },
      (error: unknown) => {
        if (accounts.get(accountId) === entry) accounts.delete(accountId);
        options.onError?.(error);
        return new Set<string>();
      },
    );
    accounts.set(accountId, entry);
    return entry.ids;
  }

  return {
    exists(accountId, calcId) {
      if (getTemplate(calcId)) return true;
      if (!CALC_ID.test(calcId)) return false;
      const ids = idsOf(accountId);
      return ids instanceof Promise ? ids.then((set) => set.has(calcId)) : ids.has(calcId);
    },
    forget(accountId) {
      accounts.delete(accountId);
    },
  };
}
