/**
 * The look, in real Chromium: every calculator passes axe (no serious or critical
 * violation) in light and dark, on a light page, and is photographed for the docs
 * (docs/images/<id>-<theme>.png); bands are coloured by meaning with their text and at
 * least 4.5:1 contrast; the first result leads; `auto` follows the page's color-scheme.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { calculatorIds } from '../../src/calculators/index.ts';
import { ROOT } from '../helpers/process.ts';
import { hostPage } from './support/servers.ts';
import { closeRecordedPage, field, waitForEvent } from './support/widget-page.ts';
import { useWidgetPage } from './support/widget-suite.ts';

// Whole pages of widgets in a real browser: a loaded machine must not turn that into a failure.
setDefaultTimeout(60_000);

const IMAGES = join(ROOT, 'docs', 'images');

const VIEWPORT = { width: 520, height: 900 };
const suite = useWidgetPage({ account: true, context: { colorScheme: 'light', viewport: VIEWPORT } });

beforeAll(() => {
  mkdirSync(IMAGES, { recursive: true });
});

/** Ends the test's page (it must have had no page error) and opens the next on a system in `colorScheme`. */
async function nextPage(colorScheme: 'light' | 'dark'): Promise<void> {
  await closeRecordedPage(suite);
  await suite.reopen({ colorScheme, viewport: VIEWPORT });
}

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: unknown; failureSummary?: string }[];
}

async function axeBlocking(): Promise<{ id: string; impact: string | null; nodes: unknown[] }[]> {
  const axeSource = await Bun.file(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js')).text();
  await suite.page.addScriptTag({ content: axeSource });
  const violations = await suite.page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document)).violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      nodes: violation.nodes.map((node) => ({ target: node.target, failureSummary: node.failureSummary })),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

const hostId = (calcId: string) => calcId.replace(/-/g, '_');

describe('every calculator, light and dark, on a light page', () => {
  test.each(['light', 'dark'] as const)(
    '%s: axe finds nothing serious or critical in all 12; each is photographed for the docs',
    async (theme) => {
      await suite.open(
        hostPage({
          api: suite.api.url,
          lang: 'en-GB',
          before: '<main><h1>Calculators</h1>',
          after: '</main>',
          widgets: calculatorIds.map((calcId) => ({
            calcId,
            apiKey: suite.apiKey,
            id: hostId(calcId),
            attributes: `data-theme="${theme}" data-currency="GBP"`,
          })),
        }),
      );
      for (const calcId of calculatorIds) await waitForEvent(suite.page, 'calc:ready', hostId(calcId));
      // An invalid value shows its message, which must pass too.
      await field(suite.page, 'bmi', 'height').fill('999');
      await field(suite.page, 'bmi', 'height').press('Tab');
      expect(await axeBlocking()).toEqual([]);
      await field(suite.page, 'bmi', 'height').fill('175');
      await field(suite.page, 'bmi', 'height').press('Tab');
      for (const calcId of calculatorIds) {
        const root = suite.page.locator(`#${hostId(calcId)} .root`);
        expect(await root.getAttribute('data-theme')).toBe(theme);
        await root.screenshot({ path: join(IMAGES, `${calcId}-${theme}.png`), animations: 'disabled' });
      }
    },
  );
});

/** Computed band colours and their contrast ratio, measured in the page. */
function bandLook(host: string) {
  return suite.page.evaluate((host) => {
    const band = document.querySelector(`#${host}`)?.shadowRoot?.querySelector<HTMLElement>('[part="band"]');
    if (!band) return null;
    const style = getComputedStyle(band);
    const channels = (color: string) => (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const luminance = (color: string) => {
      const [r = 0, g = 0, b = 0] = channels(color).map((value) => {
        const c = value / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a);
    return {
      text: band.textContent,
      tone: band.dataset.tone ?? null,
      color: style.color,
      background: style.backgroundColor,
      contrast: ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05),
    };
  }, host);
}

describe('result bands', () => {
  test.each(['light', 'dark'] as const)(
    '%s: each BMI band has its text, a colour for its meaning, and 4.5:1 contrast',
    async (theme) => {
      await suite.open(
        hostPage({
          api: suite.api.url,
          widgets: [{ calcId: 'bmi', apiKey: suite.apiKey, attributes: `data-theme="${theme}" data-units="metric"` }],
        }),
      );
      await waitForEvent(suite.page, 'calc:ready', 'w0');
      await field(suite.page, 'w0', 'height').fill('175');
      const seen = new Map<string, { color: string; background: string }>();
      // 175 cm: 50 kg → 16.3, 70 → 22.9, 80 → 26.1, 100 → 32.7, 130 → 42.4.
      for (const [weight, text, tone] of [
        ['50', 'Underweight', 'caution'],
        ['70', 'Normal weight', 'good'],
        ['80', 'Overweight', 'caution'],
        ['100', 'Obesity class I', 'risk'],
        ['130', 'Obesity class III', 'risk'],
      ] as const) {
        await field(suite.page, 'w0', 'weight').fill(weight);
        const look = await bandLook('w0');
        expect(look).toMatchObject({ text, tone });
        expect(look?.contrast ?? 0).toBeGreaterThanOrEqual(4.5);
        if (look) seen.set(tone, { color: look.color, background: look.background });
      }
      // Normal weight and Overweight no longer share one colour; the three meanings differ.
      const colours = [...seen.values()].map((look) => `${look.color}/${look.background}`);
      expect(new Set(colours).size).toBe(3);
    },
  );

  test('a band without a meaning (body fat "Average") is neutral, still with 4.5:1', async () => {
    await suite.open(
      hostPage({
        api: suite.api.url,
        widgets: [
          { calcId: 'body-fat', apiKey: suite.apiKey, attributes: `data-units="metric" data-values='{"waistCm": 92}'` },
        ],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    const look = await bandLook('w0');
    expect(look).toMatchObject({ text: 'Average', tone: null });
    expect(look?.contrast ?? 0).toBeGreaterThanOrEqual(4.5);
  });

  test('the first result leads: larger than the ones beneath it', async () => {
    await suite.open(
      hostPage({
        api: suite.api.url,
        widgets: [{ calcId: 'loan', apiKey: suite.apiKey, attributes: 'data-currency="EUR"' }],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    const sizes = await suite.page.evaluate(() =>
      [...(document.querySelector('#w0')?.shadowRoot?.querySelectorAll('[part="result-value"]') ?? [])].map((value) =>
        Number.parseFloat(getComputedStyle(value).fontSize),
      ),
    );
    expect(sizes.length).toBe(3);
    const [main = 0, ...rest] = sizes;
    for (const size of rest) expect(main).toBeGreaterThanOrEqual(size * 1.5);
  });
});

describe('theme auto', () => {
  const backgroundOf = (host: string) =>
    suite.page.evaluate((host) => {
      const root = document.querySelector(`#${host}`)?.shadowRoot?.querySelector('.root');
      return root ? getComputedStyle(root).backgroundColor : '';
    }, host);
  const LIGHT = 'rgb(255, 255, 255)';
  const DARK = 'rgb(27, 31, 36)';

  test('a page that declares light stays light on a dark system; one that declares dark is dark on a light system', async () => {
    await nextPage('dark');
    await suite.open(
      hostPage({
        api: suite.api.url,
        head: '<meta name="color-scheme" content="light">',
        widgets: [{ calcId: 'tip', apiKey: suite.apiKey, attributes: 'data-theme="auto"' }],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    expect(await backgroundOf('w0')).toBe(LIGHT);

    await nextPage('light');
    await suite.open(
      hostPage({
        api: suite.api.url,
        head: '<style>:root { color-scheme: dark; background: #111; }</style>',
        widgets: [{ calcId: 'tip', apiKey: suite.apiKey, attributes: 'data-theme="auto"' }],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    expect(await backgroundOf('w0')).toBe(DARK);
  });

  test('a page declaring both follows the system; a page switching its scheme switches the widget', async () => {
    await nextPage('dark');
    await suite.open(
      hostPage({
        api: suite.api.url,
        head: '<meta name="color-scheme" content="light dark">',
        widgets: [{ calcId: 'vat', apiKey: suite.apiKey, attributes: 'data-theme="auto"' }],
      }),
    );
    await waitForEvent(suite.page, 'calc:ready', 'w0');
    expect(await backgroundOf('w0')).toBe(DARK);
    // The site's own dark-mode switch: color-scheme set on <html>.
    await suite.page.evaluate(() => document.documentElement.style.setProperty('color-scheme', 'light'));
    await suite.page.waitForFunction(
      () => document.querySelector('#w0')?.shadowRoot?.querySelector('.root')?.getAttribute('data-theme') === 'light',
    );
    expect(await backgroundOf('w0')).toBe(LIGHT);
  });
});
