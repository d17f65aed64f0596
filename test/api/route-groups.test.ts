import { describe, expect, test } from 'bun:test';
import { testApp } from '../helpers/test-app.ts';

/**
 * Every route of the real app belongs to one declared group and follows that group's
 * rules: a module mounted outside a group, or a group whose rules are not applied, fails
 * here.
 */
describe('route groups of the app', () => {
  test('every route belongs to exactly one group', () => {
    using app = testApp();
    const key = (route: { method: string; path: string }) => `${route.method} ${route.path}`;
    const grouped = app.routeGroups.flatMap(({ routes }) => routes.map(key));
    expect(new Set(grouped).size).toBe(grouped.length);
    const native = app.routeGroups.filter((served) => served.native).flatMap(({ routes }) => routes);
    const registered = [...app.app.routes, ...native].map(key);
    expect(grouped.sort()).toEqual(registered.sort());
  });

  test('every route answers with a request id, an access-log line and its group’s CORS', async () => {
    using app = testApp();
    let checked = 0;
    for (const { group, routes } of app.routeGroups) {
      for (const route of routes) {
        const path = route.path.replace(/:\w+/g, 'bmi');
        // No token and a broken body: every route answers, most with an error envelope.
        const body = route.method === 'GET' || route.method === 'OPTIONS' ? undefined : '{broken';
        const res = await app.request(route.method, path, { body });
        const where = `${group.name}: ${route.method} ${route.path} (${res.status})`;
        const id = res.headers.get('x-request-id');
        expect(id, where).toBeTruthy();
        expect(res.headers.get('access-control-allow-origin'), where).toBe(group.cors === 'any-origin' ? '*' : null);
        if (res.status >= 400) expect(res.json?.error?.code, where).toBeString();
        const deadline = Date.now() + 5000;
        const logged = () =>
          app.logs.some((line) => line.includes(`"requestId":"${id}"`) && line.includes('"request"'));
        while (!logged() && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
        expect(logged(), where).toBe(true);
        checked++;
      }
      if (group.cors === 'any-origin') {
        for (const route of routes.filter((r) => r.method !== 'OPTIONS')) {
          const preflight = await app.request('OPTIONS', route.path.replace(/:\w+/g, 'bmi'));
          expect(preflight.status, `${group.name}: OPTIONS ${route.path}`).toBe(204);
        }
      }
    }
    expect(checked).toBeGreaterThan(15);
  });

  test("every route that takes a body follows its group's body rules and concerns", async () => {
    // One widget call a minute per client (per key, or for unknown keys per address): the
    // widget routes refuse the second. Each route gets a minute of its own.
    let now = Date.parse('2026-03-14T09:26:30Z');
    using app = testApp({ flags: { 'rate-widget-per-minute': 1 }, now: () => new Date(now) });
    let checked = 0;
    for (const { group, routes } of app.routeGroups) {
      for (const route of routes.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))) {
        const path = route.path.replace(/:\w+/g, 'bmi');
        const where = `${group.name}: ${route.method} ${route.path}`;
        // The cap is checked on the declared size, before anything is read.
        const big = await app.request(route.method, path, {
          body: 'x',
          headers: { 'content-length': String(65 * 1024) },
        });
        expect([big.status, big.json?.error?.code], where).toEqual([413, 'payload_too_large']);
        // text/plain (a browser's CORS "simple request") only where the group takes it.
        const plain = await app.request(route.method, path, { body: '{}', headers: { 'content-type': 'text/plain' } });
        const refusedAsPlain = plain.status === 400 && /Content-Type: application\/json/.test(plain.json.error.message);
        expect(refusedAsPlain, where).toBe(!group.body.widget);
        // The widget's limit is taken by its service, around the key lookup; other limits are group concerns.
        if (group.concerns.length > 0 || group.name === 'widget') {
          now += 60_000;
          // Well-formed for every widget route (unknown fields are ignored): the shape is checked first.
          const body = {
            apiKey: `pk_route${checked}`,
            domain: 'https://shop.example',
            calcId: 'bmi',
            events: ['view'],
          };
          const first = await app.request(route.method, path, { body });
          const second = await app.request(route.method, path, { body });
          expect([first.status === 429, second.status, second.json?.error?.code], where).toEqual([
            false,
            429,
            'rate_limited',
          ]);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});
