/** The product's HTTP API as the benches call it. */
import { callJson } from '../../test/helpers/process.ts';

/** The site the widget is embedded in: every widget request carries this Origin. */
export const ORIGIN = 'https://shop.example';
export const CALC_ID = 'bmi';
export const BENCH_PASSWORD = 'bench password 123';

/** A JSON API call; throws on a non-2xx answer. */
export async function api(base: string, method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const { status, json } = await callJson(base, method, path, body, token);
  if (status < 200 || status > 299) throw new Error(`${method} ${path} → ${status}: ${JSON.stringify(json)}`);
  return json;
}

/** A new account (a fresh email, `BENCH_PASSWORD`): its id, email, token and widget API key. */
export async function signUp(base: string): Promise<{ id: string; email: string; token: string; apiKey: string }> {
  const email = `bench-${crypto.randomUUID()}@calc.example`;
  const signup = await api(base, 'POST', '/v1/auth/signup', { email, password: BENCH_PASSWORD });
  return { id: signup.account.id, email, token: signup.token, apiKey: signup.account.apiKey };
}

/** A new account whose allowlist holds `domain` (the widget answers only there). */
export async function signUpWithDomain(base: string, domain: string = ORIGIN) {
  const account = await signUp(base);
  await api(base, 'POST', '/v1/domains', { domain }, account.token);
  return account;
}

/** The body of POST /v1/widget/load and /v1/widget/verify. */
export const widgetBody = (apiKey: string): string => JSON.stringify({ apiKey, domain: ORIGIN, calcId: CALC_ID });

/** One widget call as a browser on ORIGIN makes it. */
export async function widgetCall(base: string, route: 'load' | 'verify', apiKey: string) {
  const res = await fetch(`${base}/v1/widget/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN },
    body: widgetBody(apiKey),
  });
  return {
    status: res.status,
    cors: res.headers.get('access-control-allow-origin'),
    type: res.headers.get('content-type'),
    json: await res.json(),
  };
}
