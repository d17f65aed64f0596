import { Elysia } from 'elysia';
import type { ServerConfig } from '../../config.ts';
import type { AccountsStore } from '../../db/accounts-store.ts';
import { DEMO_EMAIL } from './demo.ts';
import { calculatorIds } from '../../calculators/index.ts';
import { DEMO_CSS, DEMO_JS, demoPage, demoPagePolicy } from './demo-page.ts';

// The module's face: what other parts of calc may use (CONTRIBUTING.md, "Modules and their faces").
export { type DemoCredentials, seedDemo } from './demo.ts';

/** The page at `/`: the demo, embedded exactly as a customer would embed it. */
export function pagesModule(deps: { accounts: AccountsStore; config: ServerConfig; publicUrl: () => string }) {
  return new Elysia()
    .get(
      '/',
      async () => {
        const demo = deps.config.demo ? await deps.accounts.findByEmail(DEMO_EMAIL) : undefined;
        const apiUrl = deps.publicUrl();
        return new Response(demoPage({ apiUrl, apiKey: demo?.apiKey ?? null, calcIds: calculatorIds }), {
          headers: {
            'content-type': 'text/html; charset=utf-8',
            // The demo page runs under the strict policy customers are told about.
            'content-security-policy': demoPagePolicy(apiUrl),
          },
        });
      },
      { detail: { hide: true } },
    )
    .get('/demo.css', () => new Response(DEMO_CSS, { headers: { 'content-type': 'text/css; charset=utf-8' } }), {
      detail: { hide: true },
    })
    .get('/demo.js', () => new Response(DEMO_JS, { headers: { 'content-type': 'text/javascript; charset=utf-8' } }), {
      detail: { hide: true },
    });
}
