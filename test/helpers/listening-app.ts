import { assertDescribed } from './openapi-check.ts';
import { testApp, type TestAppOptions } from './test-app.ts';

/**
 * The test app listening on 127.0.0.1 (a free port), so the server sees a real peer
 * address; with `--trust-proxy 127.0.0.1/32`, `X-Forwarded-For` stands for any client.
 * `post`'s answers are checked against /openapi.json, as the test app's are.
 */
export function listeningApp(options: TestAppOptions = {}) {
  const app = testApp(options);
  app.app.listen({ hostname: '127.0.0.1', port: 0 });
  const port = app.app.server?.port;
  if (!port) throw new Error('the app did not listen');
  const base = `http://127.0.0.1:${port}`;

  async function post(path: string, body: unknown, init: { client?: string; token?: string } = {}) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (init.client) headers['x-forwarded-for'] = init.client;
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const response = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await response.text();
    await assertDescribed(async () => (await fetch(`${base}/openapi.json`)).json(), 'POST', path, {
      status: response.status,
      headers: response.headers,
      text,
    });
    return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : undefined };
  }

  return {
    app,
    base,
    post,
    async [Symbol.asyncDispose]() {
      await app.app.stop(true);
      app[Symbol.dispose]();
    },
  };
}
