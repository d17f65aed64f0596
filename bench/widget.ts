/**
 * Widget benchmark (the embeddable widget).
 *
 *  - Size of /widget.js as served: raw, gzip, brotli (target ≤ 14 KB gzip with the formula
 *    evaluator; aim 12.5 KB), next to the field's anchors (a ~1 KB loader, 14–17 KB SDKs),
 *    of the language packs a non-English page loads on demand (one per language), and of the
 *    catalogue's template files (a catalogue widget fetches its own, beside the load).
 *  - Navigation start → first rendered result in Chromium: a host page on one origin
 *    embeds bmi from the API on another; the time is taken in the animation frame after
 *    the first `calc:result` (the frame that paints it). Median of RUNS cold loads (a new
 *    browser context each, so no cache), target ≤ 150 ms. Baseline, alternating A B A B:
 *    the same page loading a ~1 KB script from a bare Bun.serve on the API's origin kind
 *    that renders one line of text — the physical floor for "fetch a script, render".
 *    A third page in the rotation embeds the same calculator in German (`data-locale`),
 *    which fetches the German pack (beside the template file) before rendering; a fourth the same as the first with
 *    the funnel turned off (`data-analytics="off"`): the funnel must not delay the first
 *    result (on / off ≤ 1.05, the medians of the same alternating runs).
 *  - The same with RTT_MS of latency on every request (Chromium's network emulation), where
 *    each request the first render waits for shows: the widget cold (nothing cached) and on
 *    a repeat view (script and template file from the browser's cache), and the baseline.
 *  - With BENCH_WIDGET_AGAINST=<another build of widget.js> (say, an older commit's
 *    `bun widget/build/bundle.ts` output), the same first render of this tree's script and
 *    of that one, alternating, both served by a pass-through proxy in front of this API (a
 *    script talks to its own origin), without and with RTT_MS of latency: a before/after
 *    comparison under the same load on the machine.
 *  - CLS when the pre-fill arrives: an Extra account's webhook (on 127.0.0.2, through the
 *    real pull) answers PREFILL_DELAY_MS late and its values change both fields and the result; layout shifts from `calc:ready` (pre-fill
 *    applied) on are summed (target 0). The shift of the widget appearing in its empty
 *    element is reported apart: a host avoids it by reserving the widget's height.
 *
 * Runs on its own (`bun bench/widget.ts`) or from a runner that calls `run()`. Writes
 * bench/results/widget.json. Tunables (env): BENCH_WIDGET_RUNS (default 15, at least 10).
 */
import type { Browser } from 'playwright-core';
import { languagePackSizes, templateFileSizes, widgetScriptSizes } from '../src/modules/widget-script/index.ts';
import {
  median,
  printTable,
  progress,
  resultsHeader,
  writeResults,
  type BenchResults,
  type Row,
} from './lib/report.ts';
import { launchChromium } from '../test/helpers/chromium.ts';
import { api, signUpWithDomain } from './lib/api.ts';
import { inWorkDir } from './lib/processes.ts';
import { startInProcessApp } from './lib/in-process-app.ts';
import { quantile, round1, round2, round4 } from './lib/sampling.ts';

const RUNS = Math.max(10, Number(process.env.BENCH_WIDGET_RUNS ?? 15));
const WARMUP = 2;
const PREFILL_DELAY_MS = 300;
const TARGET_GZIP = 14 * 1024;
const AIM_GZIP = 12.5 * 1024;
const TARGET_RENDER_MS = 150;
const RTT_MS = 50;
const AGAINST = process.env.BENCH_WIDGET_AGAINST;
const TARGET_ANALYTICS_RATIO = 1.05;

export interface WidgetResults extends BenchResults {
  sizes: typeof widgetScriptSizes;
  packSizes: typeof languagePackSizes;
  templateSizes: typeof templateFileSizes;
  runsMs: { widget: number[]; german: number[]; baseline: number[]; analyticsOff: number[] };
  rttRunsMs: { cold: number[]; repeat: number[]; baseline: number[] };
  /** With BENCH_WIDGET_AGAINST: per variant, this tree's script and the other's, through the proxy. */
  againstRunsMs?: { file: string; variants: Record<string, { current: number[]; other: number[] }> };
  firstWithPrefillMs: number[];
  cls: { prefill: number[]; total: number[] };
}

// Timing hooks of the bench pages (no CSP there): the first rendered result, and every
// layout shift with its time.
const PROBE = `<script>
window.bench = { first: null, ready: null, shifts: [] };
document.addEventListener('calc:ready', () => { window.bench.ready = performance.now(); });
document.addEventListener('calc:result', () => {
  if (window.bench.first === null) { window.bench.first = -1; requestAnimationFrame(() => { window.bench.first = performance.now(); }); }
});
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.bench.shifts.push({ t: e.startTime, v: e.value, input: e.hadRecentInput }); }).observe({ type: 'layout-shift', buffered: true });
</script>`;

// The baseline: a tiny loader that renders one line (where the widget renders a form).
const BASELINE_JS = `(()=>{const e=document.querySelector('[data-baseline]');const s=e.attachShadow({mode:'open'});const p=document.createElement('p');p.textContent='Rendered by a 1 KB loader';s.append(p);requestAnimationFrame(()=>{window.bench.first=performance.now();});})();`;

/**
 * Serves `script` as /widget.js and passes every other request through to the API, so
 * that a script built elsewhere talks to this API from its own origin.
 */
function proxyServing(script: string, apiUrl: string) {
  return Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const { pathname, search } = new URL(request.url);
      if (pathname === '/widget.js') {
        return new Response(script, {
          headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=300' },
        });
      }
      const headers = new Headers(request.headers);
      headers.delete('accept-encoding');
      const answer = await fetch(`${apiUrl}${pathname}${search}`, {
        method: request.method,
        headers,
        body: request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer(),
      });
      const passed = new Headers(answer.headers);
      passed.delete('content-encoding');
      passed.delete('content-length');
      return new Response(await answer.arrayBuffer(), { status: answer.status, headers: passed });
    },
  });
}

function page(head: string, body: string): string {
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>bench</title>${PROBE}${head}</head><body><h1>Host page</h1>${body}<p>Content below the widget, which a layout shift would move.</p></body></html>`;
}

export function run(): Promise<WidgetResults> {
  return inWorkDir('calc-bench-widget-', async (work) => {
    // A customer's webhook for the CLS runs, answering late; the render runs' account has none.
    const webhook = Bun.serve({
      hostname: '127.0.0.2',
      port: 0,
      fetch: async () => {
        await Bun.sleep(PREFILL_DELAY_MS);
        return Response.json({ weightKg: 92.5, heightCm: 181 });
      },
    });
    // One browser on one address makes hundreds of loads a minute with one key: the
    // per-client limits and the Free quota would refuse some (a refused widget never renders).
    await using app = startInProcessApp(work, {
      CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32',
      CALC_RATE_WIDGET_PER_MINUTE: '0',
      CALC_RATE_WIDGET_PER_DAY: '0',
      CALC_QUOTA_FREE: '1000000',
    });
    const apiUrl = `http://localhost:${app.port}`;
    const baselineServer = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () => new Response(BASELINE_JS, { headers: { 'content-type': 'text/javascript' } }),
    });
    const pages = new Map<string, string>();
    const host = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: (request) =>
        new Response(pages.get(new URL(request.url).pathname) ?? 'not found', {
          headers: { 'content-type': 'text/html; charset=utf-8' },
        }),
    });
    const hostOrigin = `http://127.0.0.1:${host.port}`;
    let browser: Browser | null = null;
    let proxies: ReturnType<typeof proxyServing>[] = [];
    try {
      const { apiKey } = await signUpWithDomain(apiUrl, hostOrigin);
      const late = await signUpWithDomain(apiUrl, hostOrigin);
      await app.accounts.setPlan(late.id, 'extra');
      const prefill = { webhook: { url: `http://127.0.0.2:${webhook.port}/prefill` } };
      await api(apiUrl, 'PUT', '/v1/widget-config/bmi', { config: prefill }, late.token);
      pages.set(
        '/widget',
        page(
          `<script src="${apiUrl}/widget.js" async></script>`,
          `<div data-calc-widget data-calc-id="bmi" data-api-key="${apiKey}"></div>`,
        ),
      );
      pages.set(
        '/widget-analytics-off',
        page(
          `<script src="${apiUrl}/widget.js" async></script>`,
          `<div data-calc-widget data-calc-id="bmi" data-analytics="off" data-api-key="${apiKey}"></div>`,
        ),
      );
      pages.set(
        '/widget-prefill',
        page(
          `<script src="${apiUrl}/widget.js" async></script>`,
          `<div data-calc-widget data-calc-id="bmi" data-api-key="${late.apiKey}"></div>`,
        ),
      );
      pages.set(
        '/widget-de',
        page(
          `<script src="${apiUrl}/widget.js" async></script>`,
          `<div data-calc-widget data-calc-id="bmi" data-locale="de-DE" data-api-key="${apiKey}"></div>`,
        ),
      );
      // Before/after: each script behind its own pass-through proxy, so each talks to this API.
      proxies = AGAINST
        ? [
            proxyServing(await (await fetch(`${apiUrl}/widget.js`)).text(), apiUrl),
            proxyServing(await Bun.file(AGAINST).text(), apiUrl),
          ]
        : [];
      for (const [index, proxy] of proxies.entries()) {
        const script = `<script src="http://127.0.0.1:${proxy.port}/widget.js" async></script>`;
        const name = index === 0 ? 'current' : 'other';
        pages.set(`/${name}`, page(script, `<div data-calc-widget data-calc-id="bmi" data-api-key="${apiKey}"></div>`));
        pages.set(
          `/${name}-de`,
          page(script, `<div data-calc-widget data-calc-id="bmi" data-locale="de-DE" data-api-key="${apiKey}"></div>`),
        );
      }
      pages.set(
        '/baseline',
        page(
          `<script src="http://localhost:${baselineServer.port}/baseline.js" async></script>`,
          '<div data-baseline></div>',
        ),
      );

      browser = await launchChromium();
      /** Navigation start → first render of `path` in a new context; with `rtt`, latency on every request; `repeat` measures a second visit. */
      const measure = async (path: string, { rtt = 0, repeat = false } = {}) => {
        const context = await (browser as Browser).newContext();
        const tab = await context.newPage();
        if (rtt > 0) {
          const cdp = await context.newCDPSession(tab);
          await cdp.send('Network.enable');
          await cdp.send('Network.emulateNetworkConditions', {
            offline: false,
            latency: rtt,
            downloadThroughput: -1,
            uploadThroughput: -1,
          });
        }
        let first = Number.NaN;
        for (let visit = 0; visit < (repeat ? 2 : 1); visit++) {
          await tab.goto(`${hostOrigin}${path}`);
          await tab
            .waitForFunction(() => typeof window.bench?.first === 'number' && window.bench.first > 0)
            .catch(async (error: unknown) => {
              const shown = await tab.evaluate(
                () => document.querySelector('[data-calc-widget]')?.shadowRoot?.textContent ?? '(nothing)',
              );
              throw new Error(`${path}: no first render (${shown}): ${error}`);
            });
          first = await tab.evaluate(() => window.bench?.first ?? Number.NaN);
        }
        await context.close();
        return first;
      };

      progress(
        `widget: ${WARMUP} warm-up + ${RUNS} alternating cold loads (baseline, widget, widget in German, widget without the funnel)`,
      );
      for (let i = 0; i < WARMUP; i++) {
        await measure('/baseline');
        await measure('/widget');
        await measure('/widget-de');
        await measure('/widget-analytics-off');
      }
      const runsMs = {
        widget: [] as number[],
        german: [] as number[],
        baseline: [] as number[],
        analyticsOff: [] as number[],
      };
      for (let i = 0; i < RUNS; i++) {
        runsMs.baseline.push(await measure('/baseline'));
        // Which of the funnel's two pages goes first alternates.
        if (i % 2 === 0) runsMs.widget.push(await measure('/widget'));
        runsMs.analyticsOff.push(await measure('/widget-analytics-off'));
        if (i % 2 === 1) runsMs.widget.push(await measure('/widget'));
        runsMs.german.push(await measure('/widget-de'));
      }

      progress(`widget: ${RUNS} alternating loads with ${RTT_MS} ms round trips (baseline, cold, repeat view)`);
      const rttRunsMs = { cold: [] as number[], repeat: [] as number[], baseline: [] as number[] };
      for (let i = 0; i < RUNS; i++) {
        rttRunsMs.baseline.push(await measure('/baseline', { rtt: RTT_MS }));
        rttRunsMs.cold.push(await measure('/widget', { rtt: RTT_MS }));
        rttRunsMs.repeat.push(await measure('/widget', { rtt: RTT_MS, repeat: true }));
      }

      let againstRunsMs: WidgetResults['againstRunsMs'];
      if (AGAINST) {
        progress(`widget: ${RUNS} alternating loads of this script and ${AGAINST}, each variant`);
        const variants = {
          English: { suffix: '', options: {} },
          German: { suffix: '-de', options: {} },
          [`English, ${RTT_MS} ms round trips, cold`]: { suffix: '', options: { rtt: RTT_MS } },
          [`English, ${RTT_MS} ms round trips, repeat view`]: { suffix: '', options: { rtt: RTT_MS, repeat: true } },
          [`German, ${RTT_MS} ms round trips, cold`]: { suffix: '-de', options: { rtt: RTT_MS } },
        };
        const runs: NonNullable<WidgetResults['againstRunsMs']> = { file: AGAINST, variants: {} };
        for (let i = 0; i < WARMUP; i++) {
          await measure('/current');
          await measure('/other');
        }
        for (let i = 0; i < RUNS; i++) {
          for (const [name, { suffix, options }] of Object.entries(variants)) {
            runs.variants[name] ??= { current: [], other: [] };
            runs.variants[name].current.push(await measure(`/current${suffix}`, options));
            runs.variants[name].other.push(await measure(`/other${suffix}`, options));
          }
        }
        againstRunsMs = runs;
      }

      progress(`widget: ${RUNS} loads with the pre-fill arriving ${PREFILL_DELAY_MS} ms late`);
      const cls = { prefill: [] as number[], total: [] as number[] };
      const firstWithPrefillMs: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext();
        const tab = await context.newPage();
        await tab.goto(`${hostOrigin}/widget-prefill`);
        await tab.waitForFunction(
          () =>
            document.querySelector('[data-calc-widget]')?.shadowRoot?.querySelector('[data-key=weight]') instanceof
            HTMLInputElement,
        );
        await tab.waitForFunction(
          () =>
            (
              document
                .querySelector('[data-calc-widget]')
                ?.shadowRoot?.querySelector('[data-key=weight]') as HTMLInputElement | null
            )?.value === '92.5',
        );
        await tab.waitForTimeout(100);
        const { ready, shifts, first } = await tab.evaluate(() => ({
          ready: window.bench?.ready ?? 0,
          shifts: window.bench?.shifts ?? [],
          first: window.bench?.first ?? 0,
        }));
        if (!ready) throw new Error('calc:ready did not fire');
        firstWithPrefillMs.push(first);
        cls.prefill.push(
          round4(shifts.filter((shift) => shift.t >= ready && !shift.input).reduce((sum, shift) => sum + shift.v, 0)),
        );
        cls.total.push(round4(shifts.filter((shift) => !shift.input).reduce((sum, shift) => sum + shift.v, 0)));
        await context.close();
      }

      const widgetMs = median(runsMs.widget);
      const germanMs = median(runsMs.german);
      const german = languagePackSizes.find((pack) => pack.file.startsWith('de.'));
      const largestPack = Math.max(...languagePackSizes.map((pack) => pack.gzip));
      const bmiFile = templateFileSizes.find((file) => file.file.startsWith('bmi.'));
      const largestTemplate = Math.max(...templateFileSizes.map((file) => file.gzip));
      const baselineMs = median(runsMs.baseline);
      const offMs = median(runsMs.analyticsOff);
      const analyticsRatio = widgetMs / offMs;
      const spread = (runs: number[]) =>
        `middle half ${round1(quantile(runs, 0.25))}–${round1(quantile(runs, 0.75))} ms, range ${round1(Math.min(...runs))}–${round1(Math.max(...runs))} ms`;
      const clsPrefill = Math.max(...cls.prefill);
      const rows: Row[] = [
        {
          metric: 'widget.js raw',
          value: round2(widgetScriptSizes.raw / 1024),
          unit: 'KB',
          target: '',
          pass: null,
          note: `${widgetScriptSizes.raw} bytes`,
        },
        {
          metric: 'widget.js gzip',
          value: round2(widgetScriptSizes.gzip / 1024),
          unit: 'KB',
          target: `≤ 14 KB (aim 12.5)`,
          pass: widgetScriptSizes.gzip <= TARGET_GZIP,
          note: `${widgetScriptSizes.gzip} bytes with the formula evaluator; ${widgetScriptSizes.gzip <= AIM_GZIP ? 'meets' : 'misses'} the 12.5 KB aim; big SDKs 14–17 KB, minimal loaders ~1 KB`,
        },
        {
          metric: 'widget.js brotli',
          value: round2(widgetScriptSizes.br / 1024),
          unit: 'KB',
          target: '',
          pass: null,
          note: `${widgetScriptSizes.br} bytes`,
        },
        {
          metric: `language pack ${german?.file ?? 'de'}: gzip / brotli / raw`,
          value: round2((german?.gzip ?? 0) / 1024),
          unit: 'KB',
          target: 'loaded only by pages in German',
          pass: null,
          note: `${german?.gzip} B gzip, ${german?.br} B brotli, ${german?.raw} B raw; largest of ${languagePackSizes.length} packs ${largestPack} B gzip`,
        },
        {
          metric: `template file ${bmiFile?.file ?? 'bmi'}: gzip / brotli / raw`,
          value: bmiFile?.gzip ?? null,
          unit: 'B',
          target: 'fetched by a catalogue widget beside its load',
          pass: null,
          note: `${bmiFile?.gzip} B gzip, ${bmiFile?.br} B brotli, ${bmiFile?.raw} B raw; largest of ${templateFileSizes.length} files ${largestTemplate} B gzip`,
        },
        {
          metric: `first rendered result: median of ${RUNS}`,
          value: round1(widgetMs),
          unit: 'ms',
          target: `≤ ${TARGET_RENDER_MS} ms`,
          pass: widgetMs <= TARGET_RENDER_MS,
        },
        {
          metric: `first rendered result in German (pack fetched first): median of ${RUNS}`,
          value: round1(germanMs),
          unit: 'ms',
          target: '',
          pass: null,
          note: `${round1(germanMs - widgetMs)} ms over English: one more request to the script's origin before the first render`,
        },
        {
          metric: 'first rendered result, funnel on / off',
          value: round2(analyticsRatio),
          unit: '×',
          target: `≤ ${TARGET_ANALYTICS_RATIO}`,
          pass: analyticsRatio <= TARGET_ANALYTICS_RATIO,
          note: `medians of the same alternating runs: on ${round1(widgetMs)} ms (${spread(runsMs.widget)}), off (data-analytics="off") ${round1(offMs)} ms (${spread(runsMs.analyticsOff)})`,
        },
        {
          metric: 'baseline (1 KB loader renders a line): median',
          value: round1(baselineMs),
          unit: 'ms',
          target: '',
          pass: null,
          note: 'same page and origins, alternating runs',
        },
        { metric: 'first result vs baseline', value: round2(widgetMs / baselineMs), unit: '×', target: '', pass: null },
        {
          metric: `first rendered result, ${RTT_MS} ms round trips, cold: median of ${RUNS}`,
          value: round1(median(rttRunsMs.cold)),
          unit: 'ms',
          target: '',
          pass: null,
          note: `the 1 KB baseline at the same latency: ${round1(median(rttRunsMs.baseline))} ms`,
        },
        {
          metric: `first rendered result, ${RTT_MS} ms round trips, repeat view: median of ${RUNS}`,
          value: round1(median(rttRunsMs.repeat)),
          unit: 'ms',
          target: '',
          pass: null,
          note: 'the second visit in the same browser: script and template file from its cache',
        },
        {
          metric: `first rendered result while the pre-fill is ${PREFILL_DELAY_MS} ms late: median of ${RUNS}`,
          value: round1(median(firstWithPrefillMs)),
          unit: 'ms',
          target: '',
          pass: null,
          note: 'a catalogue calculator shows with its defaults before the load answer',
        },
        ...Object.entries(againstRunsMs?.variants ?? {}).map(
          ([name, { current, other }]): Row => ({
            metric: `first rendered result, ${name}: this script vs ${againstRunsMs?.file} (through a proxy), medians of ${RUNS}`,
            value: round1(median(current)),
            unit: 'ms',
            target: '',
            pass: null,
            note: `the other: ${round1(median(other))} ms`,
          }),
        ),
        {
          metric: `CLS when the pre-fill arrives (${PREFILL_DELAY_MS} ms late): max of ${RUNS}`,
          value: clsPrefill,
          unit: '',
          target: '0',
          pass: clsPrefill === 0,
        },
        {
          metric: 'CLS of the whole load: median',
          value: median(cls.total),
          unit: '',
          target: '',
          pass: null,
          note: 'the widget appearing in an empty element moves what follows; reserve its height (min-height) to avoid it',
        },
      ];
      const results: WidgetResults = {
        ...resultsHeader('widget'),
        rows,
        sizes: widgetScriptSizes,
        packSizes: languagePackSizes,
        templateSizes: templateFileSizes,
        runsMs,
        rttRunsMs,
        againstRunsMs,
        firstWithPrefillMs,
        cls,
      };
      writeResults('widget', results);
      return results;
    } finally {
      await browser?.close();
      await host.stop(true);
      await baselineServer.stop(true);
      await webhook.stop(true);
      for (const proxy of proxies) await proxy.stop(true);
    }
  });
}

declare global {
  interface Window {
    bench?: { first: number | null; ready: number | null; shifts: { t: number; v: number; input: boolean }[] };
  }
}

if (import.meta.main) {
  printTable(await run());
}
