/** Addresses of the dashboard's pages; the History API moves between them without reloads. */
import { CALC_ID_PATTERN } from '../../src/calculators/id.ts';
import { signal } from '@preact/signals';

export const BASE = '/dashboard';

export type Route =
  | { page: 'overview' }
  | { page: 'domains' }
  | { page: 'calculators' }
  | { page: 'calculator'; calcId: string }
  | { page: 'usage' }
  | { page: 'account' }
  | { page: 'results-endpoint' }
  | { page: 'results' }
  | { page: 'not-found' };

export const path = signal(location.pathname);

/** Whether the current page was reached by a link (then its heading takes focus). */
export let navigated = false;

addEventListener('popstate', () => {
  navigated = true;
  path.value = location.pathname;
});

export function navigate(to: string): void {
  navigated = true;
  if (to !== location.pathname) history.pushState(null, '', to);
  path.value = to;
}

const CALCULATOR_PREFIX = '/calculators/';
/** The results endpoint's page, below the Results page (its link lives there). */
export const RESULTS_ENDPOINT_PATH = '/results/endpoint';
const CALC_ID = new RegExp(CALC_ID_PATTERN);

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
  return { page: 'not-found' };
}
