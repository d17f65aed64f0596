/** The product's HTTP API as the benches call it. */

/** The site the widget is embedded in: every widget request carries this Origin. */
export const ORIGIN = 'https://shop.example';
export const CALC_ID = 'bmi';

/** A JSON API call; throws on a non-2xx answer. */
export async function api(base: string, method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${text}`);
  return text === '' ? undefined : JSON.parse(text);
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
