/**
 * Every answer the API tests get through the request helpers is checked against
 * /openapi.json (test/helpers/openapi-check.ts). Here: that the check runs on each answer,
 * and that it catches what the document does not describe, so the suites cannot pass it
 * by checking nothing.
 */
import { describe, expect, test } from 'bun:test';
import { answersChecked, openApiChecker } from '../helpers/openapi-check.ts';
import { testApp } from '../helpers/test-app.ts';

const withHeaders = (headers: Headers, extra: Record<string, string | null>) => {
  const copy = new Headers(headers);
  for (const [name, value] of Object.entries(extra)) {
    if (value === null) copy.delete(name);
    else copy.set(name, value);
  }
  return copy;
};

describe('answers checked against /openapi.json', () => {
  test('the test app checks every answer it gets', async () => {
    using app = testApp();
    const before = answersChecked();
    const { token } = await app.signup();
    await app.request('GET', '/v1/account', { token });
    await app.request('GET', '/v1/account');
    expect(answersChecked() - before).toBe(3);
  });

  test('a described answer passes; an undescribed status, header or body is caught', async () => {
    using app = testApp();
    const { check } = openApiChecker((await app.request('GET', '/openapi.json')).json);
    const { token } = await app.signup();
    const real = await app.request('GET', '/v1/account', { token });
    const answer = { status: real.status, headers: real.headers, text: real.text };
    expect(check('GET', '/v1/account', answer)).toEqual([]);

    // A status the operation does not list.
    expect(check('GET', '/v1/account', { ...answer, status: 418 })).toEqual([
      'GET /v1/account → 418: the status is not described',
    ]);
    // A header nobody described, and the request id left out.
    expect(check('GET', '/v1/account', { ...answer, headers: withHeaders(real.headers, { 'x-debug': '1' }) })).toEqual([
      'GET /v1/account → 200: header x-debug is not described',
    ]);
    expect(
      check('GET', '/v1/account', { ...answer, headers: withHeaders(real.headers, { 'x-request-id': null }) }),
    ).toEqual(['GET /v1/account → 200: header X-Request-Id is missing']);
    // A counter sent as a string, a field the schema does not have, a body of another type.
    const json = real.json;
    const asText = { ...json, usage: { ...json.usage, used: String(json.usage.used) } };
    expect(check('GET', '/v1/account', { ...answer, text: JSON.stringify(asText) })[0]).toContain(
      'body/usage/used must be integer',
    );
    expect(check('GET', '/v1/account', { ...answer, text: JSON.stringify({ ...json, extra: 1 }) })).toEqual([
      'GET /v1/account → 200: the body does not match its schema: body must NOT have additional properties',
    ]);
    const html = withHeaders(real.headers, { 'content-type': 'text/html' });
    expect(check('GET', '/v1/account', { ...answer, headers: html })).toEqual([
      'GET /v1/account → 200: a text/html body is not described',
    ]);
    // An error whose details do not have its code's shape.
    const refused = await app.request('POST', '/v1/auth/signup', { body: { email: 'a@b.example', password: 'short' } });
    const error = { status: refused.status, headers: refused.headers, text: refused.text };
    expect(check('POST', '/v1/auth/signup', error)).toEqual([]);
    const badDetails = { error: { ...refused.json.error, details: [{ where: 'password' }] } };
    expect(check('POST', '/v1/auth/signup', { ...error, text: JSON.stringify(badDetails) })[0]).toContain(
      'does not match its schema',
    );
    // A 429 without Retry-After's digits.
    const limited = { ...error, status: 429, text: JSON.stringify({ error: { code: 'rate_limited', message: 'x' } }) };
    expect(
      check('POST', '/v1/auth/login', { ...limited, headers: withHeaders(real.headers, { 'retry-after': 'soon' }) }),
    ).toEqual(['POST /v1/auth/login → 429: header retry-after: "soon" does not match its schema']);
  });
  test('a schema written once under components is checked where it is referred to', async () => {
    using app = testApp();
    const doc = (await app.request('GET', '/openapi.json')).json;
    const { check } = openApiChecker(doc);
    const { token } = await app.signup();
    const created = await app.request('POST', '/v1/account/calculators', { token, body: { from: 'bmi' } });
    const url = `/v1/account/calculators/${created.json.id}`;
    const real = await app.request('GET', url, { token });
    const answer = { status: real.status, headers: real.headers, text: real.text };
    expect(check('GET', url, answer)).toEqual([]);
    // The draft is `{ $ref: Definition }` here: a wrong input kind in it is caught all the same.
    const schema = doc.paths['/v1/account/calculators/{id}'].get.responses['200'].content['application/json'].schema;
    expect(schema.properties.draft).toEqual({ $ref: '#/components/schemas/Definition' });
    const [input, ...inputs] = real.json.draft.inputs;
    const draft = { ...real.json.draft, inputs: [{ ...input, kind: 'slider' }, ...inputs] };
    expect(check('GET', url, { ...answer, text: JSON.stringify({ ...real.json, draft }) })[0]).toContain(
      'does not match its schema',
    );
  });
});
