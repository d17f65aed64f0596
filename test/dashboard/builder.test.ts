/**
 * The calculator builder in Chromium against the real server: a calculator built with
 * forms alone, formula problems shown where they are as they are typed (the server's own
 * words and positions), the draft in the real widget, save, publish, versions and
 * restore, JSON export and import, the Calculators page's list, copies and deletion.
 */
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import type { Definition } from '../../src/definition/types.ts';
import { roofQuote } from '../fixtures/roof-quote.ts';
import {
  dashboardContext,
  docsScreenshot,
  expectOnlyLocal,
  FLOW_TIMEOUT_MS,
  PASSWORD,
  seriousViolations,
  signIn,
  useDashboard,
} from './support/dashboard.ts';

const suite = useDashboard();

let counter = 0;
const newOwner = () =>
  suite.server.app.signup(`builder${++counter}-${crypto.randomUUID().slice(0, 6)}@shop.example`, PASSWORD);
type Owner = Awaited<ReturnType<typeof newOwner>>;

async function open(path: string, owner: Owner, options: { width?: number } = {}) {
  const { context, watched } = await dashboardContext(suite.browser, options);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${suite.server.url}${path}`);
  await signIn(page, owner.email);
  return { context, page, watched, errors };
}

/** An item of the form (an input, an output, a band…) by its legend: "Input 1 (length)". */
const group = (scope: Page | Locator, name: string) =>
  scope.getByRole('group', { name: new RegExp(`^${name}( \\(|$)`) });
const field = (scope: Locator, label: string) => scope.getByLabel(label, { exact: true });

const calculatorOf = async (owner: Owner, id: string) =>
  (await suite.server.api('GET', `/v1/account/calculators/${id}`, owner.token)).json;

/** The text of the elements a control's aria-describedby names. */
const description = (control: Locator) =>
  control.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );

/** The widget inside the preview: its shadow root is open, so locators reach into it. */
const previewWidget = (page: Page) => page.locator('.widget-preview');

test(
  'a calculator built with forms alone: two inputs, a variable, an output with bands; a formula problem shown where it is as it is typed; saved and published',
  async () => {
    const owner = await newOwner();
    const { context, page, watched, errors } = await open('/dashboard/calculators', owner);
    await page.getByRole('heading', { level: 2, name: 'New calculator' }).waitFor();
    await page.getByLabel('Title', { exact: true }).fill('Fence quote');
    await page.getByRole('button', { name: 'New calculator' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Fence quote' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/calculators/fence-quote/edit');
    expect((await calculatorOf(owner, 'fence-quote')).status).toBe('draft');

    // Input 1: the blank calculator's number input, made the fence's length.
    const length = group(page, 'Input 1');
    await field(length, 'Key').fill('length');
    await field(length, 'Label').fill('Fence length');
    await field(length, 'Min').fill('1');
    await field(length, 'Max').fill('500');
    await field(length, 'Default').fill('20');
    await field(length, 'Unit').fill('m');

    // Input 2: a choice whose options carry the price per metre.
    await page.getByRole('button', { name: 'Add input' }).click();
    const material = group(page, 'Input 2');
    await field(material, 'Key').fill('material');
    await field(material, 'Label').fill('Material');
    await field(material, 'Kind').selectOption('select');
    for (const [n, value, label, number] of [
      [1, 'wood', 'Wood', '38'],
      [2, 'metal', 'Metal', '55'],
    ] as const) {
      const option = group(material, `Option ${n}`);
      await field(option, 'Value').fill(value);
      await field(option, 'Label').fill(label);
      await field(option, 'Number').fill(number);
    }
    await field(material, 'Default').selectOption('wood');

    await page.getByRole('button', { name: 'Add variable' }).click();
    const price = group(page, 'Variable 1');
    await field(price, 'Key').fill('price');
    await field(price, 'Formula').fill('length * material');

    const total = group(page, 'Output 1');
    await field(total, 'Key').fill('total');
    await field(total, 'Label').fill('Estimate');
    // A misspelt name: the problem shows under the field as it is typed, in the server's words.
    const formula = field(total, 'Formula');
    await formula.fill('price * 1.2 + wieght');
    await total.getByText('unknown name `wieght` at 14').waitFor();
    expect(await formula.getAttribute('aria-invalid')).toBe('true');
    expect(await description(formula)).toContain('unknown name `wieght` at 14');
    // The character it is at is marked beneath the formula.
    const caret = total.locator('.caret');
    expect(await caret.locator('mark').textContent()).toBe('w');
    expect(await caret.evaluate((element) => (element.firstChild?.textContent ?? '').length)).toBe(14);
    // Listed with every other problem, the link moving to the field at that character.
    const problems = page.getByRole('region', { name: 'Problems' });
    await problems.getByRole('status').filter({ hasText: '1 problem to fix' }).waitFor();
    await problems.getByRole('link', { name: 'Output 1, formula' }).click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('f-outputs[0].formula');
    expect(await formula.evaluate((input) => (input as HTMLInputElement).selectionStart)).toBe(14);
    // The very words and position the server answers for the same definition.
    const refused = await suite.server.api('PUT', '/v1/account/calculators/fence-quote', owner.token, {
      definition: {
        ...(await calculatorOf(owner, 'fence-quote')).draft,
        outputs: [{ key: 'total', label: 'Estimate', formula: 'price * 1.2 + wieght' }],
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.json.error.details).toContainEqual({
      path: 'outputs[0].formula',
      message: 'unknown name `wieght` at 14',
      position: 14,
    });
    // Saving is refused while a problem is left.
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('alert').filter({ hasText: 'Fix the 1 problem' }).waitFor();

    await formula.fill('round(price * 1.2, 2)');
    await problems.getByText('None: the draft can be saved and published.').waitFor();
    expect(await formula.getAttribute('aria-invalid')).toBeNull();
    await field(total, 'Shown as').selectOption('currency');
    await field(total, 'Decimals').fill('0');
    await total.getByRole('button', { name: 'Add band' }).click();
    await total.getByRole('button', { name: 'Add band' }).click();
    const small = group(total, 'Band 1');
    await field(small, 'Up to').fill('1000');
    await field(small, 'Label').fill('Small job');
    await field(small, 'Tone').selectOption('good');
    const large = group(total, 'Band 2');
    await field(large, 'Label').fill('Large job');
    await field(large, 'Tone').selectOption('caution');

    // The draft in the real widget, as the owner edits it: 20 m of wood, 20 × 38 × 1.2.
    const widget = previewWidget(page);
    await widget.getByText('Fence length').waitFor();
    await widget.getByText('912').waitFor();
    await widget.getByText('Small job').waitFor();
    await widget.getByLabel('Fence length').fill('50');
    await widget.getByText('2,280').waitFor();
    await widget.getByText('Large job').waitFor();
    // A formula left open: its end is marked; the preview keeps the last draft without problems.
    await formula.fill('round(price * 1.2, 2');
    await total.getByText('expected `)` but found the end of the formula at 20').waitFor();
    await total.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await docsScreenshot(page, 'builder', 'window');
    await widget.getByText('2,280').waitFor();
    await formula.fill('round(price * 1.2, 2)');

    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    const saved = await calculatorOf(owner, 'fence-quote');
    expect(saved.draft).toEqual({
      id: 'fence-quote',
      title: 'Fence quote',
      inputs: [
        { kind: 'number', key: 'length', label: 'Fence length', min: 1, max: 500, default: 20, unit: 'm' },
        {
          kind: 'select',
          key: 'material',
          label: 'Material',
          options: [
            { value: 'wood', label: 'Wood', number: 38 },
            { value: 'metal', label: 'Metal', number: 55 },
          ],
          default: 'wood',
        },
      ],
      variables: [{ key: 'price', formula: 'length * material' }],
      outputs: [
        {
          key: 'total',
          label: 'Estimate',
          formula: 'round(price * 1.2, 2)',
          format: { style: 'currency', decimals: 0 },
          bands: [
            { label: 'Small job', upTo: 1000, tone: 'good' },
            { label: 'Large job', tone: 'caution' },
          ],
        },
      ],
    });
    expect(saved.status).toBe('draft');

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published: visitors now see version 1.').waitFor();
    const published = await calculatorOf(owner, 'fence-quote');
    expect([published.status, published.publishedVersion]).toEqual(['published', 1]);
    const evaluated = await suite.server.api('POST', '/v1/account/calculators/fence-quote/evaluate', owner.token, {
      inputs: { length: 50, material: 'metal' },
    });
    expect(evaluated.json).toEqual({ outputs: { total: 3300 } });
    await page
      .getByRole('region', { name: 'Versions' })
      .getByRole('row', { name: /^1 \(what visitors see\)/ })
      .waitFor();
    expectOnlyLocal(watched, suite.server.url);
    expect(watched.violations).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

/** An owner with the roof quote as a calculator of their own, published once, then published again with a new title. */
async function ownerWithVersions(): Promise<Owner> {
  const owner = await newOwner();
  const first = roofQuote();
  expect((await suite.server.api('POST', '/v1/account/calculators', owner.token, { definition: first })).status).toBe(
    201,
  );
  await suite.server.api('POST', '/v1/account/calculators/roof-quote/publish', owner.token);
  const second: Definition = { ...first, title: 'Roof quote, second edition' };
  await suite.server.api('PUT', '/v1/account/calculators/roof-quote', owner.token, { definition: second });
  await suite.server.api('POST', '/v1/account/calculators/roof-quote/publish', owner.token);
  return owner;
}

test(
  'versions: the list, and a restore that asks first when the draft has changes not published',
  async () => {
    const owner = await ownerWithVersions();
    const { context, page } = await open('/dashboard/calculators/roof-quote/edit', owner);
    await page.getByRole('heading', { level: 1, name: 'Edit Roof quote, second edition' }).waitFor();
    await page.getByText('Published: visitors see version 2.').waitFor();
    const versions = page.getByRole('region', { name: 'Versions' });
    await versions.getByRole('row', { name: /^2 \(what visitors see\)/ }).waitFor();
    await versions.getByRole('row', { name: /^1 / }).waitFor();

    // An edit not saved: restoring asks first, and Cancel keeps it.
    await field(page.getByRole('region', { name: 'Calculator' }), 'Title').fill('Roof quote, third edition');
    await page.getByText('Unsaved changes.').waitFor();
    await versions.getByRole('button', { name: 'Restore version 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore version 1?' });
    await dialog.getByText('some of them not even saved').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await field(page.getByRole('region', { name: 'Calculator' }), 'Title').inputValue()).toBe(
      'Roof quote, third edition',
    );

    await versions.getByRole('button', { name: 'Restore version 1' }).click();
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await page.getByText('Version 1 is the draft now. Publish it to serve it.').waitFor();
    const restored = await calculatorOf(owner, 'roof-quote');
    expect(restored.draft).toEqual(roofQuote());
    expect([restored.status, restored.publishedVersion]).toEqual(['changed', 2]);
    // The form shows version 1, with nothing unsaved.
    expect(await field(page.getByRole('region', { name: 'Calculator' }), 'Title').inputValue()).toBe('Roof quote');
    expect(await page.getByText('Unsaved changes.').count()).toBe(0);

    // Publishing it serves it again, as version 3.
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published: visitors now see version 3.').waitFor();
    await versions.getByRole('row', { name: /^3 \(what visitors see\)/ }).waitFor();
    expect((await calculatorOf(owner, 'roof-quote')).published).toEqual(roofQuote());
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

test(
  'JSON: export downloads the draft, import reads it back from a file or pasted text, with its problems listed',
  async () => {
    const owner = await newOwner();
    await suite.server.api('POST', '/v1/account/calculators', owner.token, { definition: roofQuote() });
    const { context, page } = await open('/dashboard/calculators/roof-quote/edit', owner);
    await page.getByRole('heading', { level: 1, name: 'Edit Roof quote' }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export JSON' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('roof-quote.json');
    const exported = readFileSync((await download.path()) ?? '', 'utf8');
    expect(JSON.parse(exported)).toEqual((await calculatorOf(owner, 'roof-quote')).draft);

    // Changed, then the exported file read back: the form shows the export again.
    const title = field(page.getByRole('region', { name: 'Calculator' }), 'Title');
    await title.fill('Something else');
    await page.getByLabel('JSON file').setInputFiles({
      name: 'roof-quote.json',
      mimeType: 'application/json',
      buffer: Buffer.from(exported),
    });
    await page.getByText('Imported, not saved yet: no problems.').waitFor();
    expect(await title.inputValue()).toBe('Roof quote');

    // Pasted: not JSON at all, then a definition with problems (under another id: it keeps this one's).
    const pasted = page.getByLabel('Or paste the JSON');
    await pasted.fill('{"id": ');
    await page.getByRole('button', { name: 'Import pasted JSON' }).click();
    await page.getByRole('alert').filter({ hasText: 'That is not JSON' }).waitFor();
    const broken = {
      ...roofQuote(),
      id: 'other-id',
      title: 'Roof quote imported',
      outputs: [{ key: 'total', label: 'Total', formula: 'base * (1 - discount' }],
    };
    await pasted.fill(JSON.stringify(broken));
    await page.getByRole('button', { name: 'Import pasted JSON' }).click();
    await page
      .getByText(
        "Imported, not saved yet (under this calculator's id, roof-quote): 1 problem to fix, listed under Problems.",
      )
      .waitFor();
    const problems = page.getByRole('region', { name: 'Problems' });
    await problems.getByText('expected `)` but found the end of the formula at 20').waitFor();
    expect(await field(group(page, 'Output 1'), 'Formula').getAttribute('aria-invalid')).toBe('true');

    // Fixed and saved: the server holds the imported definition, under this calculator's id.
    await field(group(page, 'Output 1'), 'Formula').fill('base * (1 - discount)');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    expect((await calculatorOf(owner, 'roof-quote')).draft).toEqual({
      ...broken,
      id: 'roof-quote',
      outputs: [{ key: 'total', label: 'Total', formula: 'base * (1 - discount)' }],
    });
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

test(
  'the Calculators page: own calculators with status and version, a copy of a template, the page of one, deletion after confirming',
  async () => {
    const owner = await ownerWithVersions();
    // Free keeps one calculator of one's own; Base ten.
    await suite.server.app.accounts.setPlan(owner.id, 'base');
    const { context, page } = await open('/dashboard/calculators', owner);
    const own = page.getByRole('table', { name: 'Your calculators' });
    await own.getByRole('row', { name: /^Roof quote, second edition roof-quote Published 2 / }).waitFor();

    await page.getByLabel('Start from').selectOption('loan');
    await page.getByRole('button', { name: 'New calculator' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Loan Payment' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/calculators/loan-copy/edit');
    const copy = await calculatorOf(owner, 'loan-copy');
    const template = (await (await fetch(`${suite.server.url}/v1/calculators/loan`)).json()).calculator.definition;
    expect(copy.draft).toEqual({ ...template, id: 'loan-copy' });
    // Its forms show the template: the catalogue's loan amount input.
    expect(await field(group(page, 'Input 1'), 'Key').inputValue()).toBe(template.inputs[0].key);

    await page.getByRole('link', { name: 'Calculators', exact: true }).first().click();
    await own.getByRole('row', { name: /^Loan Payment loan-copy Draft, not published — / }).waitFor();
    await docsScreenshot(page, 'calculators');

    // One's own page: its embed snippet names it.
    await own.getByRole('link', { name: 'Roof quote, second edition', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Roof quote, second edition' }).waitFor();
    expect(await page.locator('#snippet').textContent()).toContain('data-calc-id="roof-quote"');
    await page.getByRole('link', { name: 'Edit in the builder' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Roof quote, second edition' }).waitFor();
    await page.getByRole('link', { name: 'Calculators', exact: true }).first().click();

    await own.getByRole('button', { name: 'Delete Loan Payment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Loan Payment?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await suite.server.api('GET', '/v1/account/calculators/loan-copy', owner.token)).status).toBe(200);
    await own.getByRole('button', { name: 'Delete Loan Payment' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Loan Payment is deleted.').waitFor();
    expect((await suite.server.api('GET', '/v1/account/calculators/loan-copy', owner.token)).status).toBe(404);
    await own.getByRole('row', { name: /loan-copy/ }).waitFor({ state: 'detached' });
    await own.getByRole('row', { name: /roof-quote/ }).waitFor();
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

test(
  'keyboard only: entries move with their buttons and focus stays on them; leaving with unsaved changes asks first',
  async () => {
    const owner = await newOwner();
    await suite.server.api('POST', '/v1/account/calculators', owner.token, { definition: roofQuote() });
    const { context, page } = await open('/dashboard/calculators/roof-quote/edit', owner);
    await page.getByRole('heading', { level: 1, name: 'Edit Roof quote' }).waitFor();
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');

    // Tab to "Move down" of input 1 and press Enter twice: it is third, focus still on its button.
    await page.getByRole('button', { name: 'Move up Input 1 (area)' }).waitFor();
    await field(group(page, 'Input 1'), 'Shown').focus();
    for (let i = 0; i < 5 && (await focused()) !== 'Move down Input 1 (area)'; i++) await page.keyboard.press('Tab');
    expect(await focused()).toBe('Move down Input 1 (area)');
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('Move down Input 2 (area)');
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('Move down Input 3 (area)');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('Move up Input 2 (area)');
    await page.getByText('Unsaved changes.').waitFor();

    // The new order is the draft's: the area moved down one, below the material.
    const inputs = await page.evaluate(() =>
      [...document.querySelectorAll('[id="f-inputs"] > ol > li > fieldset > legend')].map(
        (legend) => legend.textContent,
      ),
    );
    expect(inputs.slice(0, 4)).toEqual([
      'Input 1 (material)',
      'Input 2 (area)',
      'Input 3 (removal)',
      'Input 4 (layers)',
    ]);

    // Leaving asks; declined, the page stays.
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('link', { name: 'Overview' }).click();
    expect(asked).toEqual(['This calculator has changes that are not saved. Leave without saving them?']);
    expect(new URL(page.url()).pathname).toBe('/dashboard/calculators/roof-quote/edit');
    // Saved, it leaves without asking.
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const saved = (await calculatorOf(owner, 'roof-quote')).draft as Definition;
    expect(saved.inputs.map((input) => input.key)).toEqual(['material', 'area', 'removal', 'layers']);
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);

for (const width of [1280, 375]) {
  test(
    `axe-core: nothing serious or critical in the builder with problems on show, at ${width} px, light and dark`,
    async () => {
      const owner = await newOwner();
      await suite.server.api('POST', '/v1/account/calculators', owner.token, { definition: roofQuote() });
      for (const colorScheme of ['light', 'dark'] as const) {
        const { context } = await dashboardContext(suite.browser, { width, colorScheme });
        const page = await context.newPage();
        await page.goto(`${suite.server.url}/dashboard/calculators/roof-quote/edit`);
        await signIn(page, owner.email);
        await page.getByRole('heading', { level: 1, name: 'Edit Roof quote' }).waitFor();
        await field(group(page, 'Input 1'), 'Default').fill('5000');
        await field(group(page, 'Variable 1'), 'Formula').fill('area ** material');
        await page.getByRole('region', { name: 'Problems' }).getByText('2 problems to fix').waitFor();
        await page.getByText('Translations (1)').first().click();
        await previewWidget(page).getByText('Roof area').waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
        await context.close();
      }
    },
    FLOW_TIMEOUT_MS,
  );
}

test(
  'texts in several languages, values per unit system and tables, as forms',
  async () => {
    const owner = await newOwner();
    await suite.server.api('POST', '/v1/account/calculators', owner.token, { definition: roofQuote() });
    const { context, page } = await open('/dashboard/calculators/roof-quote/edit', owner);
    await page.getByRole('heading', { level: 1, name: 'Edit Roof quote' }).waitFor();

    // A translation of the area's label: the text becomes one per language; the preview speaks German.
    const area = group(page, 'Input 1');
    await area.getByText('Translations of Label', { exact: true }).click();
    await field(area, 'Label in German (de)').fill('Dachfläche');
    await page.getByLabel('Language').selectOption('de');
    await previewWidget(page).getByText('Dachfläche').waitFor();
    await previewWidget(page).getByText('Dachangebot').waitFor();

    // Two unit systems: the area's range per system, one value while both agree.
    await page.getByLabel('Unit systems').selectOption('metric,imperial');
    await field(area, 'Max (imperial)').fill('10000');
    await field(area, 'Unit (imperial)').fill('sq ft');

    // A table renamed: the formula naming it shows the problem until it follows.
    const table = group(page, 'Table 1');
    await field(table, 'Name').fill('volume');
    const discount = field(group(page, 'Variable 2'), 'Formula');
    await group(page, 'Variable 2').getByText('unknown table `discounts` at 13').waitFor();
    await discount.fill('lookup(area, volume)');
    await group(table, 'Row 3').getByRole('button', { name: 'Remove Row 3' }).click();
    await table.getByRole('button', { name: 'Add row' }).click();
    await field(group(table, 'Row 3'), 'Threshold').fill('800');
    await field(group(table, 'Row 3'), 'Value').fill('0.15');

    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    const draft = (await calculatorOf(owner, 'roof-quote')).draft as Definition;
    expect(draft.unitSystems).toEqual(['metric', 'imperial']);
    expect(draft.inputs[0]).toEqual({
      kind: 'number',
      key: 'area',
      label: { en: 'Roof area', de: 'Dachfläche' },
      unit: { metric: 'm²', imperial: 'sq ft' },
      min: 10,
      max: { metric: 1000, imperial: 10000 },
      default: 120,
      step: 1,
    });
    expect(draft.variables?.[1]).toEqual({ key: 'discount', formula: 'lookup(area, volume)' });
    expect(draft.tables).toEqual({
      volume: [
        [0, 0],
        [200, 0.05],
        [800, 0.15],
      ],
    });

    // The translation emptied: the label is one string again.
    await field(area, 'Label in German (de)').fill('');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('Draft saved.').waitFor();
    expect(((await calculatorOf(owner, 'roof-quote')).draft as Definition).inputs[0]?.label).toBe('Roof area');
    await context.close();
  },
  FLOW_TIMEOUT_MS,
);
