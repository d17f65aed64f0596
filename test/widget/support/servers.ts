/**
 * Real HTTP for the browser: the API (the real app, in-process, on a temp SQLite dir)
 * on http://localhost:<p1>, and host pages on a different origin, http://127.0.0.1:<p2>.
 */
import type { InputValues as FieldValues } from '../../../src/definition/types.ts';
import { testApp, type TestAppOptions } from '../../helpers/test-app.ts';
import { startTarget } from '../../helpers/webhook-target.ts';

interface ApiAccount {
  apiKey: string;
  email: string;
  token: string;
  id: string;
}

export interface ApiServer {
  /** The API's base URL (also where /widget.js lives). */
  url: string;
  /** Signs up an account and registers `origin` for it. */
  accountFor(origin: string, email?: string): Promise<ApiAccount>;
  /** Moves the account to Extra and points its `calcId` webhook at `url`, as its owner would. */
  useWebhook(account: ApiAccount, calcId: string, url: string): Promise<void>;
  /** Moves the account to Base (once) and saves `results` as its `calcId` results config, as its owner would. */
  useResults(account: ApiAccount, calcId: string, results: unknown): Promise<void>;
  stop(): Promise<void>;
}

/**
 * An API that may call startPrefillWebhook's host, and waits for a pull as long as a
 * test runs (a test may hold one open while the visitor types).
 */
export const PREFILL_API = { env: { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' }, webhookTimeoutMs: 60_000 };

export function startApi(options: Pick<TestAppOptions, 'flags' | 'env' | 'webhookTimeoutMs'> = {}): ApiServer {
  // One browser signs up many accounts from one address: the sign-up limit is lifted here
  // (test/api/abuse-limits.test.ts covers it).
  const built = testApp({ ...options, flags: { 'rate-signup-per-hour': 0, ...options.flags } });
  built.app.listen({ hostname: '127.0.0.1', port: 0 });
  const port = built.app.server?.port;
  if (!port) throw new Error('the API did not start');
  const url = `http://localhost:${port}`;
  let counter = 0;
  return {
    url,
    async accountFor(origin, email = `owner${++counter}-${crypto.randomUUID().slice(0, 8)}@shop.example`) {
      const signup = await fetch(`${url}/v1/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'correct horse battery' }),
      });
      if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);
      const { token, account } = (await signup.json()) as { token: string; account: { apiKey: string; id: string } };
      const added = await fetch(`${url}/v1/domains`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ domain: origin }),
      });
      if (added.status !== 201) throw new Error(`domain add failed: ${added.status} ${await added.text()}`);
      return { apiKey: account.apiKey, email, token, id: account.id };
    },
    async useWebhook(account, calcId, webhookUrl) {
      await built.accounts.setPlan(account.id, 'extra');
      const saved = await fetch(`${url}/v1/widget-config/${calcId}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${account.token}` },
        body: JSON.stringify({ config: { webhook: { url: webhookUrl } } }),
      });
      if (saved.status !== 200) throw new Error(`webhook save failed: ${saved.status} ${await saved.text()}`);
    },
    async useResults(account, calcId, results) {
      if ((await built.accounts.findById(account.id))?.plan === 'free')
        await built.accounts.setPlan(account.id, 'base');
      const saved = await fetch(`${url}/v1/widget-config/${calcId}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${account.token}` },
        body: JSON.stringify({ config: { results } }),
      });
      if (saved.status !== 200) throw new Error(`results config save failed: ${saved.status} ${await saved.text()}`);
    },
    async stop() {
      await built.app.stop(true);
      built[Symbol.dispose]();
    },
  };
}

/**
 * A customer's pre-fill webhook on 127.0.0.2 (an API started with PREFILL_API calls
 * it): each URL it hands out answers its own values, once its gate opens.
 */
export function startPrefillWebhook() {
  const answers = new Map<string, { values: FieldValues; gate?: Promise<void> }>();
  const target = startTarget('127.0.0.2', async (request) => {
    const answer = answers.get(new URL(request.url).pathname);
    await answer?.gate;
    return Response.json(answer?.values ?? {});
  });
  return {
    /** A fresh webhook URL that answers `values` after `gate` (at once without one). */
    answering(values: FieldValues, gate?: Promise<void>): string {
      const path = `/prefill/${crypto.randomUUID()}`;
      answers.set(path, { values, gate });
      return target.url(path);
    },
    stop: () => target.stop(),
  };
}

export type PrefillWebhook = ReturnType<typeof startPrefillWebhook>;

export interface HostSite {
  /** http://127.0.0.1:<port> — a different origin from the API. */
  origin: string;
  /** Serves `html` at `path`, with extra response headers (e.g. a CSP). */
  page(path: string, html: string, headers?: Record<string, string>): string;
  stop(): Promise<void>;
}

export function startHostSite(): HostSite {
  const pages = new Map<string, { html: string; headers: Record<string, string> }>();
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const found = pages.get(new URL(request.url).pathname);
      if (!found) return new Response('not found', { status: 404 });
      return new Response(found.html, {
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...found.headers },
      });
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    origin,
    page(path, html, headers = {}) {
      pages.set(path, { html, headers });
      return `${origin}${path}`;
    },
    stop: () => server.stop(true),
  };
}

/** A host page embedding widgets the way a customer does. */
export function hostPage({
  api,
  widgets,
  head = '',
  before = '',
  after = '',
  scriptTimes = 1,
  lang = 'en-GB',
}: {
  api: string;
  widgets: { calcId: string; apiKey: string; attributes?: string; id?: string }[];
  head?: string;
  before?: string;
  after?: string;
  scriptTimes?: number;
  lang?: string;
}): string {
  const script = `<script src="${api}/widget.js" async></script>\n`;
  return `<!doctype html>
<html lang="${lang}">
<head><meta charset="utf-8"><title>host</title>${head}</head>
<body>
${before}
${script.repeat(scriptTimes)}
${widgets.map((w, i) => `<div id="${w.id ?? `w${i}`}" data-calc-widget data-calc-id="${w.calcId}" data-api-key="${w.apiKey}"${w.attributes ? ` ${w.attributes}` : ''}></div>`).join('\n')}
${after}
</body>
</html>`;
}
