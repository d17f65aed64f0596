/** Addresses of the dashboard's pages; the History API moves between them without reloads. */
import { CALC_ID_PATTERN } from '../../src/definition/id.ts';
import { signal } from '@preact/signals';

export const BASE = '/dashboard';

export type Route =
  | { page: 'overview' }
  | { page: 'domains' }
  | { page: 'calculators' }
  | { page: 'calculator'; calcId: string }
  | { page: 'builder'; calcId: string }
  | { page: 'usage' }
  | { page: 'account' }
  | { page: 'results-endpoint' }
  | { page: 'results' }
  | { page: 'not-found' };

export const path = signal(location.pathname);

/** Whether the current page was reached by a link (then its heading takes focus). */
export let navigated = false;

/**
 * Asked before the app leaves the current page (a page with unsaved changes sets one);
 * false stays. Cleared by the page when it goes.
 */
let leaveGuard: (() => boolean) | null = null;

export function setLeaveGuard(guard: (() => boolean) | null): void {
  leaveGuard = guard;
}

addEventListener('popstate', () => {
  // Back or forward has already moved the address: put it back when the page stays.
  if (leaveGuard && location.pathname !== path.value && !leaveGuard()) {
    history.pushState(null, '', path.value);
    return;
  }
  navigated = true;
  path.value = location.pathname;
});

export function navigate(to: string): void {
  if (leaveGuard && to !== path.value && !leaveGuard()) return;
  navigated = true;
  if (to !== location.pathname) history.pushState(null, '', to);
  path.value = to;
}

const CALCULATOR_PREFIX = '/calculators/';
/** The results endpoint's page, below the Results page (its link lives there). */
export const RESULTS_ENDPOINT_PATH = '/results/endpoint';
const CALC_ID = new RegExp(CALC_ID_PATTERN);
/** An owner's calculator in the builder: `/dashboard/calculators/<id>/edit`. */
const EDIT_SUFFIX = '/edit';

export const builderPath = (calcId: string): string => `${BASE}${CALCULATOR_PREFIX}${calcId}${EDIT_SUFFIX}`;

export function routeOf(pathname: string): Route {
  const rest = pathname.replace(/\/+$/, '').slice(BASE.length);
  if (rest === '') return { page: 'overview' };
  if (rest === '/domains') return { page: 'domains' };
  if (rest === '/calculators') return { page: 'calculators' };
  if (rest === '/usage') return { page: 'usage' };
  if (rest === '/account') return { page: 'account' };
  if (rest === RESULTS_ENDPOINT_PATH) return { page: 'results-endpoint' };
  if (rest === '/results') return { page: 'results' };
  const calcId = rest.startsWith(CALCULATOR_PREFIX) ? rest.slice(CALCULATOR_PREFIX.length) : '';
  if (CALC_ID.test(calcId)) return { page: 'calculator', calcId };
  const edited = calcId.endsWith(EDIT_SUFFIX) ? calcId.slice(0, -EDIT_SUFFIX.length) : '';
  if (CALC_ID.test(edited)) return { page: 'builder', calcId: edited };
  return { page: 'not-found' };
}
