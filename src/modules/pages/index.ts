import { Elysia } from 'elysia';
import type { ServerConfig } from '../../config.ts';
import type { AccountsStore } from '../../db/accounts-store.ts';
import { DEMO_EMAIL } from './demo.ts';
import { DEMO_JS, demoPage } from './demo-page.ts';

/** The page at `/`: the demo, embedded exactly as a customer would embed it. */
export function pagesModule(deps: { accounts: AccountsStore; config: ServerConfig; publicUrl: () => string }) {
  return new Elysia().get(
    '/',
    () => {
      const demo = deps.config.demo ? deps.accounts.findByEmail(DEMO_EMAIL) : undefined;
      return new Response(demoPage({ apiUrl: deps.publicUrl(), apiKey: demo?.apiKey ?? null }), {
        headers: {
          'content-type': 'text/html; charset=utf-8',
          // The demo page runs under the strict policy customers are told about.
          'content-security-policy': "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self'",
        },
      });
    },
    { detail: { hide: true } },
  ).get('/demo.js', () => new Response(DEMO_JS, { headers: { 'content-type': 'text/javascript; charset=utf-8' } }), { detail: { hide: true } });
}
