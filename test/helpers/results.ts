/** Owners who accept visitors' results, and their pages' submissions, as the results tests need them. */
import { SHOP_ORIGIN } from './owners.ts';
import { callJson, runCommand, SOURCE_CLI } from './process.ts';
import type { TestApp } from './test-app.ts';

/** A results config that asks for an email (required) and a name (optional), with a consent text in two languages. */
export const LEAD_CONFIG = {
  enabled: true,
  button: { en: 'Email me this result', de: 'Ergebnis per E-Mail' },
  contact: { email: 'required', name: 'optional' },
  consentText: { en: 'Shop Example may email me about my result.', de: 'Shop Example darf mir schreiben.' },
} as const;

/** bmi's inputs as the widget sends them (the display aliases, in kg and cm). */
const BMI_INPUTS = { weight: 80, height: 180 };

/**
 * A new owner on `plan` whose page is SHOP_ORIGIN and whose `calcIds` take results with
 * `config` (as the owner saves it with `PUT /v1/widget-config`).
 */
export async function resultsOwner(
  app: TestApp,
  options: { plan?: 'free' | 'base' | 'extra'; config?: unknown; calcIds?: string[] } = {},
) {
  const owner = await app.signup();
  await app.accounts.setPlan(owner.id, options.plan ?? 'base');
  const domain = await app.request('POST', '/v1/domains', { token: owner.token, body: { domain: SHOP_ORIGIN } });
  if (domain.status !== 201) throw new Error(`adding the domain failed: ${domain.text}`);
  for (const calcId of options.calcIds ?? ['bmi']) {
    const saved = await app.request('PUT', `/v1/widget-config/${calcId}`, {
      token: owner.token,
      body: { config: { results: options.config ?? LEAD_CONFIG } },
    });
    if (saved.status !== 200) throw new Error(`saving the results config failed: ${saved.text}`);
  }
  return owner;
}

/** A page's submission of bmi for `owner` from SHOP_ORIGIN, with a contact and the consent unless overridden. */
export function submission(owner: { apiKey: string }, extra: Record<string, unknown> = {}) {
  return {
    apiKey: owner.apiKey,
    domain: SHOP_ORIGIN,
    calcId: 'bmi',
    inputs: BMI_INPUTS,
    contact: { email: 'jo@example.net', name: 'Jo Bloggs' },
    consent: true,
    ...extra,
  };
}

/** POSTs a submission as a page would (text/plain JSON, the page's Origin). */
export function submit(app: TestApp, body: unknown, headers: Record<string, string> = { origin: SHOP_ORIGIN }) {
  return app.request('POST', '/v1/widget/submit', { body, headers: { 'content-type': 'text/plain', ...headers } });
}

/**
 * Against a running `calc serve` on the data directory `data` (SOURCE_CLI): a new owner on
 * Base (as the operator sets it), SHOP_ORIGIN registered, results on for bmi with
 * LEAD_CONFIG, and a results endpoint on `endpointUrl` when given.
 */
export async function servedResultsOwner(base: string, data: string, endpointUrl?: string) {
  const email = `owner-${crypto.randomUUID().slice(0, 8)}@shop.example`;
  const signup = await callJson(base, 'POST', '/v1/auth/signup', { email, password: 'correct horse battery' });
  if (signup.status !== 201) throw new Error(`sign-up failed: ${JSON.stringify(signup.json)}`);
  const token: string = signup.json.token;
  const plan = await runCommand(SOURCE_CLI, [
    'admin',
    'accounts',
    'set-plan',
    '--email',
    email,
    '--plan',
    'base',
    '--data',
    data,
  ]);
  if (plan.exitCode !== 0) throw new Error(`set-plan failed: ${plan.stderr}`);
  const steps: [string, string, unknown][] = [
    ['POST', '/v1/domains', { domain: SHOP_ORIGIN }],
    ['PUT', '/v1/widget-config/bmi', { config: { results: LEAD_CONFIG } }],
  ];
  if (endpointUrl) steps.push(['PUT', '/v1/account/results-endpoint', { url: endpointUrl }]);
  for (const [method, path, body] of steps) {
    const answer = await callJson(base, method, path, body, token);
    if (answer.status >= 300) throw new Error(`${method} ${path} failed: ${JSON.stringify(answer.json)}`);
  }
  return { token, apiKey: signup.json.account.apiKey as string };
}
