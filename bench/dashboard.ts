/**
 * Dashboard benchmark (the developer dashboard), in Chromium on localhost.
 *
 *  - First page interactive: navigation start → the sign-in form usable (the app has
 *    rendered it and focused "Email"), measured in the frame after. Cold: a new browser
 *    context per run, so nothing is cached. Target ≤ 300 ms median.
 *  - Overview after sign-in: the "Sign in" click → the overview's usage meter and daily
 *    chart on screen (sign-in, GET /v1/account and GET /v1/usage done), in the frame
 *    after. Target ≤ 300 ms median.
 *  - Baseline, alternating runs A B A B: the same server origin kind serving a plain HTML
 *    form with no script at all — the floor for "a page with a form is usable".
 *  - Size of all JavaScript and CSS as served, gzip (budget 60 KB), the calculator
 *    builder's chunk apart (loaded only when its page opens; its size is reported).
 *
 * Runs on its own (`bun bench/dashboard.ts`) or from `bun bench/run.ts dashboard`. Writes
 * bench/results/dashboard.json. Tunables (env): BENCH_DASHBOARD_RUNS (default 15, ≥ 10).
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium } from '../test/helpers/chromium.ts';
import { builderGzipBytes, dashboardGzipBytes } from '../src/modules/dashboard/index.ts';
import {
  median,
  printTable,
  progress,
  resultsHeader,
  writeResults,
  type BenchResults,
  type Row,
} from './lib/report.ts';
import { BENCH_PASSWORD, signUp } from './lib/api.ts';
import { inWorkDir } from './lib/processes.ts';
import { startInProcessApp } from './lib/in-process-app.ts';
import { quantile, round1, round2 } from './lib/sampling.ts';

const RUNS = Math.max(10, Number(process.env.BENCH_DASHBOARD_RUNS ?? 15));
const WARMUP = 2;
const TARGET_MS = 300;
const BUDGET_GZIP = 60 * 1024;

export interface DashboardResults extends BenchResults {
  runsMs: {
    signInForm: number[];
    baselineForm: number[];
    overview: number[];
    login: number[];
    clickToOverview: number[];
  };
  gzipBytes: number;
  builderGzipBytes: number;
}

// Injected through the DevTools protocol (the dashboard's policy forbids inline scripts):
// the moment the sign-in form is usable, the Sign in click, and the overview on screen.
const PROBE = () => {
  const marks: { form: number | null; click: number | null; session: number | null; overview: number | null } = {
    form: null,
    click: null,
    session: null,
    overview: null,
  };
  // The moment the sign-in answer (the token) has arrived.
  const realFetch = window.fetch.bind(window);
  const timedFetch = (input: RequestInfo | URL, init?: RequestInit) =>
    realFetch(input, init).then((response) => {
      if (String(input).endsWith('/v1/auth/login')) marks.session = performance.now();
      return response;
    });
  window.fetch = Object.assign(timedFetch, { preconnect: window.fetch.preconnect });
  Object.defineProperty(window, 'benchMarks', { value: marks });
  const inFrame = (key: 'form' | 'overview') =>
    requestAnimationFrame(() => {
      marks[key] = performance.now();
    });
  const check = () => {
    if (marks.form === null && document.activeElement?.id === 'email') {
      marks.form = -1;
      inFrame('form');
    }
    if (
      marks.click !== null &&
      marks.overview === null &&
      document.querySelector('meter') &&
      document.querySelector('.chart canvas')
    ) {
      marks.overview = -1;
      inFrame('overview');
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
  document.addEventListener('focusin', check, true);
  document.addEventListener(
    'click',
    (event) => {
      if (event.target instanceof HTMLButtonElement && event.target.textContent === 'Sign in')
        marks.click = performance.now();
    },
    true,
  );
};

const BASELINE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>baseline</title></head><body><main><h1>Sign in</h1><form><label for="email">Email</label><input id="email" type="email" autofocus><label for="password">Password</label><input id="password" type="password"><button>Sign in</button></form></main></body></html>`;

export function run(): Promise<DashboardResults> {
  return inWorkDir('calc-bench-dashboard-', async (work) => {
    await using app = startInProcessApp(work);
    const url = app.url;
    const baseline = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () => new Response(BASELINE_HTML, { headers: { 'content-type': 'text/html; charset=utf-8' } }),
    });
    let browser: Browser | null = null;
    try {
      const { email } = await signUp(url);

      browser = await launchChromium();
      const fresh = async (): Promise<BrowserContext> => {
        const context = await (browser as Browser).newContext({ viewport: { width: 1280, height: 900 } });
        await context.addInitScript(PROBE);
        return context;
      };
      const mark = (tab: import('playwright-core').Page, key: 'form' | 'overview') =>
        tab
          .waitForFunction(
            (k) => ((window as unknown as { benchMarks: Record<string, number | null> }).benchMarks[k] ?? 0) > 0,
            key,
          )
          .then(() =>
            tab.evaluate(
              (k) => (window as unknown as { benchMarks: Record<string, number> }).benchMarks[k] as number,
              key,
            ),
          );

      const dashboard = async () => {
        const context = await fresh();
        const tab = await context.newPage();
        await tab.goto(`${url}/dashboard`);
        const form = await mark(tab, 'form');
        await tab.getByLabel('Email').fill(email);
        await tab.getByLabel('Password').fill(BENCH_PASSWORD);
        await tab.getByRole('button', { name: 'Sign in' }).click();
        const overview = await mark(tab, 'overview');
        const { click, session } = await tab.evaluate(
          () => (window as unknown as { benchMarks: { click: number; session: number } }).benchMarks,
        );
        await context.close();
        return { form, overview: overview - session, login: session - click, clickToOverview: overview - click };
      };
      const plain = async () => {
        const context = await fresh();
        const tab = await context.newPage();
        await tab.goto(`http://127.0.0.1:${baseline.port}/`);
        const form = await mark(tab, 'form');
        await context.close();
        return form;
      };

      progress(`dashboard: ${WARMUP} warm-up + ${RUNS} alternating cold runs (plain form, dashboard)`);
      for (let i = 0; i < WARMUP; i++) {
        await plain();
        await dashboard();
      }
      const runsMs = {
        signInForm: [] as number[],
        baselineForm: [] as number[],
        overview: [] as number[],
        login: [] as number[],
        clickToOverview: [] as number[],
      };
      for (let i = 0; i < RUNS; i++) {
        runsMs.baselineForm.push(round1(await plain()));
        const measured = await dashboard();
        runsMs.signInForm.push(round1(measured.form));
        runsMs.overview.push(round1(measured.overview));
        runsMs.login.push(round1(measured.login));
        runsMs.clickToOverview.push(round1(measured.clickToOverview));
      }
      const form = median(runsMs.signInForm);
      const base = median(runsMs.baselineForm);
      const overview = median(runsMs.overview);
      const rows: Row[] = [
        {
          metric: `sign-in form usable: median of ${RUNS} cold loads`,
          value: round1(form),
          unit: 'ms',
          target: `≤ ${TARGET_MS} ms`,
          pass: form <= TARGET_MS,
          note: `p90 ${round1(quantile(runsMs.signInForm, 0.9))} ms`,
        },
        {
          metric: 'baseline (plain HTML form, no script): median',
          value: round1(base),
          unit: 'ms',
          target: '',
          pass: null,
          note: 'same browser, alternating runs',
        },
        { metric: 'sign-in form vs baseline', value: round2(form / base), unit: '×', target: '', pass: null },
        {
          metric: `overview after sign-in (token → meter and chart drawn): median of ${RUNS}`,
          value: round1(overview),
          unit: 'ms',
          target: `≤ ${TARGET_MS} ms`,
          pass: overview <= TARGET_MS,
          note: `p90 ${round1(quantile(runsMs.overview, 0.9))} ms; GET /v1/account, GET /v1/usage, the chart library and drawing`,
        },
        {
          metric: 'sign-in answer (argon2id password check): median',
          value: round1(median(runsMs.login)),
          unit: 'ms',
          target: '',
          pass: null,
          note: 'the deliberate cost of the password hash, on the server',
        },
        {
          metric: 'Sign in click → overview drawn: median',
          value: round1(median(runsMs.clickToOverview)),
          unit: 'ms',
          target: '',
          pass: null,
        },
        {
          metric: 'all JavaScript and CSS (chart chunk included, builder apart), gzip',
          value: round1(dashboardGzipBytes / 1024),
          unit: 'KB',
          target: '≤ 60 KB',
          pass: dashboardGzipBytes <= BUDGET_GZIP,
          note: `${dashboardGzipBytes} bytes`,
        },
        {
          metric: 'the calculator builder chunk, gzip',
          value: round1(builderGzipBytes / 1024),
          unit: 'KB',
          target: '',
          pass: null,
          note: `${builderGzipBytes} bytes, loaded when the builder opens`,
        },
      ];
      const results: DashboardResults = {
        ...resultsHeader('dashboard'),
        rows,
        runsMs,
        gzipBytes: dashboardGzipBytes,
        builderGzipBytes,
      };
      writeResults('dashboard', results);
      return results;
    } finally {
      await browser?.close();
      await baseline.stop(true);
    }
  });
}

if (import.meta.main) {
  printTable(await run());
}
