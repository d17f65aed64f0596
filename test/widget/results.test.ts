/**
 * Sending the result in real Chromium against the real API: the owner's button, contact
 * fields and consent under the result, by keyboard, under a strict host policy; the
 * result listed for the owner; missing fields, a refused submission and a retry; hostile
 * owner texts shown as text; the form in German; the form's chunk loaded only by the
 * widgets that offer it.
 */
import { describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { seriousAxeFindings } from './support/axe.ts';
import { hostPage } from './support/servers.ts';
import { recordCspViolations, strictPolicy, useWidgetPage } from './support/widget-suite.ts';
import { field, focused, waitForEvent } from './support/widget-page.ts';

const suite = useWidgetPage();

const CONSENT = {
  en: 'Shop Example may email me about my result.',
  de: 'Shop Example darf mir zu meinem Ergebnis schreiben.',
};
const LEADS = { enabled: true, contact: { email: 'required', name: 'optional' }, consentText: CONSENT };

const part = (page: Page, host: string, name: string) => page.locator(`#${host} [part~="${name}"]`);
const button = (page: Page, host = 'w0') => part(page, host, 'send-button');
const status = (page: Page, host = 'w0') => part(page, host, 'send-status');

/** An owner of the host site whose bmi asks for `results`; their key and token. */
async function owner(results: unknown = LEADS) {
  const account = await suite.api.accountFor(suite.site.origin);
  await suite.api.useResults(account, 'bmi', results);
  return account;
}

async function resultsOf(token: string): Promise<Record<string, unknown>[]> {
  const answer = await fetch(`${suite.api.url}/v1/results`, { headers: { authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { results: Record<string, unknown>[] }).results;
}

/** Opens bmi for `apiKey` and waits for the results form under it. */
async function openWithForm(apiKey: string, attributes = '', headers: Record<string, string> = {}): Promise<string> {
  const url = await suite.open(hostPage({ api: suite.api.url, widgets: [{ calcId: 'bmi', apiKey, attributes }] }), {
    headers,
  });
  await waitForEvent(suite.page, 'calc:ready', 'w0');
  await button(suite.page).waitFor();
  return url;
}

/** Waits until the form's live region is in `state`; answers its text. */
async function statusIn(page: Page, state: string, host = 'w0'): Promise<string> {
  await page.locator(`#${host} [part="send-status"][data-state="${state}"]`).waitFor({ state: 'attached' });
  return (await status(page, host).textContent()) ?? '';
}

describe('sending the result', () => {
  test('computed, contact and consent filled by keyboard, sent: "sent" shown, the result listed for the owner', async () => {
    const { page } = suite;
    const account = await owner();
    await recordCspViolations(suite.context);
    const url = await openWithForm(account.apiKey, '', { 'content-security-policy': strictPolicy(suite.api.url) });

    await field(page, 'w0', 'weight').fill('72');
    await field(page, 'w0', 'height').fill('180');
    // Labelled controls: the form's own texts, and the owner's consent text beside its checkbox.
    await page.getByLabel('Email', { exact: true }).fill('jo@example.net');
    await page.getByLabel('Name (optional)').fill('Jo Bloggs');
    expect(await page.getByLabel('Email', { exact: true }).getAttribute('required')).toBe('');
    expect(await page.getByLabel('Name (optional)').getAttribute('required')).toBeNull();
    expect(await button(page).textContent()).toBe('Send my result');
    expect(await status(page).getAttribute('role')).toBe('status');

    // Keyboard only from here: the consent with Space, Tab to the button (never to the honeypot), Enter.
    await page.getByLabel(CONSENT.en).focus();
    await page.keyboard.press('Space');
    expect(await page.getByLabel(CONSENT.en).isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('div#w0 > button');
    await page.keyboard.press('Enter');
    expect(await statusIn(page, 'sent')).toBe('Sent. Thank you!');
    // Held until the visitor changes something: a second press sends nothing.
    expect(await button(page).getAttribute('aria-disabled')).toBe('true');
    await page.keyboard.press('Enter');

    const [result, ...others] = await resultsOf(account.token);
    expect(others).toEqual([]);
    expect(result).toMatchObject({
      calcId: 'bmi',
      domain: suite.site.origin,
      units: 'metric',
      inputs: { weightKg: 72, heightCm: 180 },
      outputs: { bmi: 72 / 1.8 ** 2 },
      contact: { email: 'jo@example.net', name: 'Jo Bloggs' },
      page: url,
      prefill: { weight: 'typed', height: 'typed' },
      consent: { text: CONSENT.en, locale: 'en' },
    });

    // A change by the visitor makes a new result sendable.
    await field(page, 'w0', 'weight').fill('75');
    expect(await button(page).getAttribute('aria-disabled')).toBe('false');
    expect(await status(page).textContent()).toBe('');
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    expect(await seriousAxeFindings(page)).toEqual([]);
  });

  test('the honeypot is out of sight, of the tab order and of the accessibility tree', async () => {
    const { page } = suite;
    await openWithForm((await owner()).apiKey);
    const honeypot = page.locator('#w0 #s-hp');
    expect(await honeypot.getAttribute('tabindex')).toBe('-1');
    const box = await honeypot.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(0);
    expect(await page.locator('#w0 [aria-hidden="true"] #s-hp').count()).toBe(1);
    expect(await page.getByRole('textbox', { name: 'Website' }).count()).toBe(0);
  });

  test('missing contact or consent: told so, the first missing field focused, nothing sent', async () => {
    const { page } = suite;
    const account = await owner();
    await openWithForm(account.apiKey);
    await button(page).click();
    expect(await statusIn(page, 'missing')).toBe('Please fill in the required fields.');
    expect(await focused(page)).toBe('div#w0 > input#s-email');
    expect(await page.locator('#w0 #s-email').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#w0 #s-consent').getAttribute('aria-invalid')).toBe('true');
    // Not an email address is missing too; the consent still unticked.
    await page.locator('#w0 #s-email').fill('jo at example');
    await button(page).click();
    expect(await statusIn(page, 'missing')).toBe('Please fill in the required fields.');
    await page.locator('#w0 #s-email').fill('jo@example.net');
    await button(page).click();
    expect(await focused(page)).toBe('div#w0 > input#s-consent');
    expect(await page.locator('#w0 #s-email').getAttribute('aria-invalid')).toBeNull();
    expect(await resultsOf(account.token)).toEqual([]);
  });

  test('a refused submission shows "failed" and warns; the visitor retries and it is sent', async () => {
    const { page } = suite;
    const account = await owner();
    await openWithForm(account.apiKey);
    await page.locator('#w0 #s-email').fill('jo@example.net');
    await page.locator('#w0 #s-consent').check();
    // The owner turns results off after the page loaded: the server refuses the submission.
    await suite.api.useResults(account, 'bmi', { ...LEADS, enabled: false });
    await button(page).click();
    expect(await statusIn(page, 'failed')).toBe('Sending failed. Please try again.');
    expect(await button(page).getAttribute('aria-disabled')).toBe('false');
    expect(suite.record.warnings.some((w) => w.includes('results_disabled'))).toBe(true);
    expect(await resultsOf(account.token)).toEqual([]);

    await suite.api.useResults(account, 'bmi', LEADS);
    await button(page).click();
    expect(await statusIn(page, 'sent')).toBe('Sent. Thank you!');
    expect(await resultsOf(account.token)).toHaveLength(1);
  });
});

describe('texts', () => {
  test('hostile owner texts are shown as text: no element made of them, no script run', async () => {
    const { page } = suite;
    const hostile = '<img src=x onerror="window.pwned=1">Send';
    const consent = '<b>I agree</b><script>window.pwned=1</script>';
    await openWithForm((await owner({ enabled: true, button: hostile, consentText: consent })).apiKey);
    expect(await button(page).textContent()).toBe(hostile);
    expect(await page.locator('#w0 label[for="s-consent"]').textContent()).toBe(consent);
    expect(await page.locator('#w0 [part="send"] :is(img, b, script)').count()).toBe(0);
    expect(await page.evaluate(() => 'pwned' in window)).toBe(false);
  });

  test('in German: the form’s texts from the language pack, the owner’s in German, the consent kept in German', async () => {
    const { page } = suite;
    const account = await owner();
    await openWithForm(account.apiKey, 'data-locale="de"');
    expect(await button(page).textContent()).toBe('Mein Ergebnis senden');
    await page.getByLabel('E-Mail', { exact: true }).fill('jo@example.net');
    expect(await page.getByLabel('Name (optional)').count()).toBe(1);
    await page.getByLabel(CONSENT.de).check();
    await button(page).click();
    expect(await statusIn(page, 'sent')).toBe('Gesendet. Vielen Dank!');
    const [result] = await resultsOf(account.token);
    expect(result?.consent).toMatchObject({ text: CONSENT.de, locale: 'de' });
  });
});

test('only widgets that offer sending load its chunk, once per page; the others show no form', async () => {
  const { page } = suite;
  const chunks: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/widget/chunks/')) chunks.push(new URL(request.url()).pathname);
  });
  const withResults = await owner();
  const without = await suite.api.accountFor(suite.site.origin);
  await suite.open(
    hostPage({
      api: suite.api.url,
      widgets: [
        { calcId: 'bmi', apiKey: without.apiKey },
        { calcId: 'bmi', apiKey: withResults.apiKey },
        { calcId: 'bmi', apiKey: withResults.apiKey },
      ],
    }),
  );
  await button(page, 'w1').waitFor();
  await button(page, 'w2').waitFor();
  await waitForEvent(page, 'calc:ready', 'w0');
  expect(await part(page, 'w0', 'send').count()).toBe(0);
  expect(chunks).toHaveLength(1);
  expect(chunks[0]).toMatch(/^\/widget\/chunks\/results\.[0-9a-f]{12}\.js$/);
});
