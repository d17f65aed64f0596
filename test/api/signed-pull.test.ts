/**
 * Signed pulls and visitor context, checked from the target's side: a real loopback
 * server receives the pull and verifies it with the secret the owner was given, using
 * its own HMAC code (not the server's).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { startTarget, type TargetServer } from '../helpers/webhook-target.ts';
import { manualClock } from '../helpers/clock.ts';
import { extraShop, SHOP_ORIGIN as ORIGIN } from '../helpers/owners.ts';
import { testApp, type TestApp } from '../helpers/test-app.ts';

const ALLOW = { CALC_WEBHOOK_ALLOW_CIDRS: '127.0.0.2/32' };
const DAY_S = 24 * 60 * 60;

let target: TargetServer;
beforeAll(() => {
  target = startTarget('127.0.0.2', () => Response.json({ weightKg: 81 }));
});
afterAll(() => target.stop());

/** An Extra shop with a bmi webhook, and its signing secret as its backend holds it. */
async function shopWithSecret(app: TestApp, url: string) {
  const owner = await extraShop(app, url);
  const secret = await app.request('GET', '/v1/account/signing-secret', { token: owner.token });
  return { ...owner, secret: secret.json.signingSecret as string };
}

/** Loads bmi and returns the request the target received for it. */
async function loadAndReceive(app: TestApp, apiKey: string, context?: unknown) {
  const before = target.hits;
  const body: Record<string, unknown> = { apiKey, domain: ORIGIN, calcId: 'bmi' };
  if (context !== undefined) body.context = context;
  const res = await app.request('POST', '/v1/widget/load', { body, headers: { origin: ORIGIN } });
  expect(res.status).toBe(200);
  expect(res.json.values).toEqual({ weightKg: 81 });
  expect(target.hits).toBe(before + 1);
  const received = target.requests.at(-1);
  if (!received) throw new Error('no request received');
  return received.headers;
}

/**
 * The target's own check: the secrets among `secrets` that one signature of `version` in
 * the header matches. v2 signs each field behind its length in UTF-8 bytes; v1 the fields
 * joined with dots.
 */
function verifiedBy(
  headers: Record<string, string>,
  url: string,
  secrets: string[],
  version: 'v1' | 'v2' = 'v2',
): string[] {
  const signature = headers['calc-signature'] ?? '';
  const parts = signature.split(',');
  const t = parts[0]?.startsWith('t=') ? parts[0].slice(2) : '';
  const fields = [t, 'GET', url, headers['calc-calculator'] ?? '', headers['calc-origin'] ?? ''];
  fields.push(headers['calc-visitor'] ?? '');
  const message =
    version === 'v1' ? fields.join('.') : fields.map((field) => `${Buffer.byteLength(field)}:${field}`).join('');
  const given = parts.filter((p) => p.startsWith(`${version}=`)).map((p) => Buffer.from(p.slice(3), 'hex'));
  return secrets.filter((secret) => {
    const expected = createHmac('sha256', secret).update(message, 'utf8').digest();
    return given.some((value) => value.length === expected.length && timingSafeEqual(value, expected));
  });
}

const PAIR = 'v1=[0-9a-f]{64},v2=[0-9a-f]{64}';

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
/** Builds a token by hand (any header, any claims), signed HS256 with `secret`. */
function token(
  secret: string,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = { alg: 'HS256', typ: 'JWT' },
) {
  const input = `${b64(header)}.${b64(claims)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

describe('signed pulls', () => {
  test('every pull names calculator and origin and carries a signature over the URL exactly as saved', async () => {
    const clock = manualClock();
    using app = testApp({ env: ALLOW, now: clock.now });
    const url = target.url('/prefill?shop=42&lang=de');
    const owner = await shopWithSecret(app, url);
    const headers = await loadAndReceive(app, owner.apiKey);
    expect(headers['calc-calculator']).toBe('bmi');
    expect(headers['calc-origin']).toBe(ORIGIN);
    expect(headers['calc-visitor']).toBeUndefined();
    expect(headers['calc-signature']).toMatch(new RegExp(`^t=${clock.seconds()},${PAIR}$`));
    expect(verifiedBy(headers, url, [owner.secret])).toEqual([owner.secret]);
    expect(verifiedBy(headers, url, [owner.secret], 'v1')).toEqual([owner.secret]);
    // The URL as GET /v1/widget-config shows it is what is signed.
    const shown = await app.request('GET', '/v1/widget-config/bmi', { token: owner.token });
    expect(shown.json.config.webhook.url).toBe(url);
    // Anything else does not verify: another URL, another secret.
    expect(verifiedBy(headers, target.url('/prefill?shop=42'), [owner.secret])).toEqual([]);
    expect(verifiedBy(headers, url, ['whsec_someoneelse0000000000000000000000'])).toEqual([]);
  });

  test('during a rotation overlap the pull carries two signature pairs, new secret first; one after 24 hours', async () => {
    const clock = manualClock();
    using app = testApp({ env: ALLOW, now: clock.now });
    const url = target.url('/prefill');
    const owner = await shopWithSecret(app, url);
    const rotated = await app.request('POST', '/v1/account/signing-secret', { token: owner.token });
    const fresh = rotated.json.signingSecret as string;
    const during = await loadAndReceive(app, owner.apiKey);
    expect(during['calc-signature']).toMatch(new RegExp(`^t=\\d+,${PAIR},${PAIR}$`));
    expect(verifiedBy(during, url, [fresh, owner.secret])).toEqual([fresh, owner.secret]);
    expect(verifiedBy(during, url, [fresh, owner.secret], 'v1')).toEqual([fresh, owner.secret]);
    const [, firstV1, firstV2] = (during['calc-signature'] ?? '').split(',');
    const first = { ...during, 'calc-signature': `t=${clock.seconds()},${firstV1},${firstV2}` };
    expect(verifiedBy(first, url, [fresh, owner.secret])).toEqual([fresh]);
    expect(verifiedBy(first, url, [fresh, owner.secret], 'v1')).toEqual([fresh]);
    // A visitor signed with the previous secret still counts during the overlap.
    const old = token(owner.secret, { sub: 'cust_old', exp: clock.seconds() + 600 });
    const withOld = await loadAndReceive(app, owner.apiKey, old);
    expect(withOld['calc-visitor']).toBe('cust_old');
    expect(verifiedBy(withOld, url, [fresh, owner.secret])).toEqual([fresh, owner.secret]);

    clock.advance(DAY_S * 1000);
    const after = await loadAndReceive(app, owner.apiKey);
    expect(after['calc-signature']).toMatch(new RegExp(`^t=\\d+,${PAIR}$`));
    expect(verifiedBy(after, url, [fresh, owner.secret])).toEqual([fresh]);
    const stale = token(owner.secret, { sub: 'cust_old', exp: clock.seconds() + 600 });
    expect((await loadAndReceive(app, owner.apiKey, stale))['calc-visitor']).toBeUndefined();
  });

  test('the test pull signs too, as the visitor the owner names; a bad visitor name is a 400', async () => {
    const clock = manualClock();
    using app = testApp({ env: ALLOW, now: clock.now });
    const url = target.url('/prefill?t=1');
    const owner = await shopWithSecret(app, url);
    const test = (body?: unknown) =>
      app.request('POST', '/v1/widget-config/bmi/test-webhook', { token: owner.token, body });
    const plain = await test();
    expect(plain.json.outcome).toBe('ok');
    let received = target.requests.at(-1)?.headers ?? {};
    expect(received['calc-visitor']).toBeUndefined();
    expect(received['calc-origin']).toBe(ORIGIN);
    expect(verifiedBy(received, url, [owner.secret])).toEqual([owner.secret]);

    const asVisitor = await test({ visitor: 'customer 42' });
    expect(asVisitor.status).toBe(200);
    received = target.requests.at(-1)?.headers ?? {};
    expect(received['calc-visitor']).toBe('customer 42');
    expect(verifiedBy(received, url, [owner.secret])).toEqual([owner.secret]);

    const hits = target.hits;
    for (const visitor of ['', 'x'.repeat(129), 'tab\there', ' padded', 'é']) {
      const res = await test({ visitor });
      expect({ visitor, status: res.status }).toEqual({ visitor, status: 400 });
    }
    expect(target.hits).toBe(hits);
  });

  test('v2 has one reading: text shifted from the origin into the visitor verifies under v1 only', async () => {
    const clock = manualClock();
    using app = testApp({ env: ALLOW, now: clock.now });
    const url = target.url('/prefill');
    const owner = await shopWithSecret(app, url);
    const context = token(owner.secret, { sub: 'x.y,v1=00', exp: clock.seconds() + 600 });
    const captured = await loadAndReceive(app, owner.apiKey, context);
    expect([captured['calc-origin'], captured['calc-visitor']]).toEqual([ORIGIN, 'x.y,v1=00']);
    expect(verifiedBy(captured, url, [owner.secret])).toEqual([owner.secret]);
    // The same signature replayed for another origin and visitor, the dot moved across.
    const forged = { ...captured, 'calc-origin': `${ORIGIN}.x`, 'calc-visitor': 'y,v1=00' };
    expect(verifiedBy(forged, url, [owner.secret], 'v1')).toEqual([owner.secret]);
    expect(verifiedBy(forged, url, [owner.secret], 'v2')).toEqual([]);
  });

  test('a header named Calc-* in a config stored before the rule is never sent in place of ours', async () => {
    using app = testApp({ env: ALLOW });
    const url = target.url('/prefill');
    const owner = await shopWithSecret(app, url);
    const { createHeaderCipher } = await import('../../src/security/header-cipher.ts');
    const sealed = createHeaderCipher(new Uint8Array(32).fill(7)).seal(
      { 'Calc-Visitor': 'forged', 'X-Shop': '1' },
      `${owner.id}/bmi`,
    );
    await app.sql('UPDATE widget_configs SET webhook_headers = ?', sealed);
    const headers = await loadAndReceive(app, owner.apiKey);
    expect(headers['x-shop']).toBe('1');
    expect(headers['calc-visitor']).toBeUndefined();
  });
});

describe('visitor context', () => {
  test('context table: only a valid token names the visitor; the visitor gets a 200 and the values every time', async () => {
    const clock = manualClock();
    using app = testApp({ env: ALLOW, now: clock.now });
    const url = target.url('/prefill');
    const owner = await shopWithSecret(app, url);
    const now = clock.seconds();
    const s = owner.secret;
    const valid = { sub: 'cust_42', exp: now + 600 };
    const cases: [string, unknown, string | undefined][] = [
      ['valid', token(s, valid), 'cust_42'],
      ['valid with calc and origin', token(s, { ...valid, calc: 'bmi', origin: ORIGIN }), 'cust_42'],
      ['origin written differently', token(s, { ...valid, origin: 'HTTPS://Shop.Example:443' }), 'cust_42'],
      ['exp exactly 24 h ahead', token(s, { ...valid, exp: now + DAY_S }), 'cust_42'],
      ['sub with spaces inside', token(s, { ...valid, sub: 'Jane Doe #7' }), 'Jane Doe #7'],
      ['sub of 128 characters', token(s, { ...valid, sub: 'a'.repeat(128) }), 'a'.repeat(128)],
      ['expired', token(s, { ...valid, exp: now - 1 }), undefined],
      ['exp now', token(s, { ...valid, exp: now }), undefined],
      ['exp beyond 24 h', token(s, { ...valid, exp: now + DAY_S + 1 }), undefined],
      ['missing exp', token(s, { sub: 'cust_42' }), undefined],
      ['exp as a string', token(s, { ...valid, exp: String(now + 600) }), undefined],
      ['nbf in the future', token(s, { ...valid, nbf: now + 60 }), undefined],
      ['missing sub', token(s, { exp: now + 600 }), undefined],
      ['empty sub', token(s, { ...valid, sub: '' }), undefined],
      ['sub of 129 characters', token(s, { ...valid, sub: 'a'.repeat(129) }), undefined],
      ['sub with a newline', token(s, { ...valid, sub: 'a\nCalc-Visitor: b' }), undefined],
      ['sub not ASCII', token(s, { ...valid, sub: 'jürgen' }), undefined],
      ['sub a number', token(s, { ...valid, sub: 42 }), undefined],
      ['forged: another secret', token('whsec_notthesecret000000000000000000', valid), undefined],
      [
        'forged: claims changed after signing',
        (() => {
          const [h, , sig] = token(s, valid).split('.');
          return `${h}.${b64({ ...valid, sub: 'admin' })}.${sig}`;
        })(),
        undefined,
      ],
      ['alg none', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(valid)}.`, undefined],
      ['alg none with a signature', token(s, valid, { alg: 'none' }), undefined],
      [
        'alg HS512',
        (() => {
          const input = `${b64({ alg: 'HS512' })}.${b64(valid)}`;
          return `${input}.${createHmac('sha512', s).update(input).digest('base64url')}`;
        })(),
        undefined,
      ],
      ['alg HS256 spelt otherwise', token(s, valid, { alg: 'hs256' }), undefined],
      ['alg RS256', token(s, valid, { alg: 'RS256' }), undefined],
      ['crit header', token(s, valid, { alg: 'HS256', crit: ['exp'] }), undefined],
      ['other calculator', token(s, { ...valid, calc: 'tdee' }), undefined],
      ['other origin', token(s, { ...valid, origin: 'https://evil.example' }), undefined],
      ['origin wildcard', token(s, { ...valid, origin: 'https://*.shop.example' }), undefined],
      ['origin not a string', token(s, { ...valid, origin: 1 }), undefined],
      ['oversized (valid signature, over 2 KiB)', token(s, { ...valid, pad: 'x'.repeat(2100) }), undefined],
      ['garbage', 'not a token at all', undefined],
      ['empty string', '', undefined],
      ['four segments', `${token(s, valid)}.x`, undefined],
      ['bad base64url', token(s, valid).replace('.', '.!'), undefined],
      ['claims not JSON', `${b64({ alg: 'HS256' })}.${b64('nope')}.AAAA`, undefined],
      ['claims an array', token(s, [] as unknown as Record<string, unknown>), undefined],
      ['huge garbage', 'A'.repeat(60_000), undefined],
    ];
    const seen: Record<string, string | undefined> = {};
    const wanted: Record<string, string | undefined> = {};
    for (const [name, context, visitor] of cases) {
      const headers = await loadAndReceive(app, owner.apiKey, context);
      seen[name] = headers['calc-visitor'];
      wanted[name] = visitor;
      // Signed either way, over whatever visitor the pull names.
      expect(verifiedBy(headers, url, [s])).toEqual([s]);
    }
    expect(seen).toEqual(wanted);
    await app.flush();
    const logged = app.logs.join('\n');
    for (const sub of ['cust_42', 'Jane Doe', 'admin']) expect(logged).not.toContain(sub);
  });

  test('a context on a load without a webhook, or off the Extra plan, changes nothing', async () => {
    using app = testApp({ env: ALLOW });
    const owner = await app.signup();
    await app.request('POST', '/v1/domains', { token: owner.token, body: { domain: ORIGIN } });
    for (const context of ['garbage', 'a.b.c']) {
      const res = await app.request('POST', '/v1/widget/load', {
        body: { apiKey: owner.apiKey, domain: ORIGIN, calcId: 'bmi', context },
        headers: { origin: ORIGIN },
      });
      expect(res.status).toBe(200);
      expect(res.json.values).toEqual({});
    }
  });
});
