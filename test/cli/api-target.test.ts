import { describe, expect, test } from 'bun:test';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_API_URL, normaliseApiUrl, resolveApiTarget } from '../../cli/lib/api-target.ts';
import { configDir, readLogin, removeLogin, writeLogin } from '../../cli/lib/credentials.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const login = (apiUrl: string, expiresAt = '2999-01-01T00:00:00.000Z') => ({
  apiUrl,
  token: 'stored.jwt.token',
  email: 'o@shop.example',
  expiresAt,
});

describe('configDir', () => {
  test('CALC_CONFIG_DIR, else $XDG_CONFIG_HOME/calc, else ~/.config/calc', () => {
    expect(configDir({ CALC_CONFIG_DIR: '/c', XDG_CONFIG_HOME: '/x' })).toBe('/c');
    expect(configDir({ XDG_CONFIG_HOME: '/x' })).toBe('/x/calc');
    expect(configDir({})).toMatch(/\/\.config\/calc$/);
  });
});

describe('credentials file', () => {
  test('written 0600 in a 0700 directory (also when the directory existed wider); removed by removeLogin', () => {
    using dir = tempDir();
    const env = { CALC_CONFIG_DIR: join(dir.path, 'nested', 'calc') };
    const file = writeLogin(login('http://a.example'), env);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(env.CALC_CONFIG_DIR).mode & 0o777).toBe(0o700);
    expect(readLogin(env)).toEqual(login('http://a.example'));
    expect(removeLogin(env)).toBe(true);
    expect(removeLogin(env)).toBe(false);
    expect(readLogin(env)).toBeNull();
  });

  test('a file that is not a login reads as no login', async () => {
    using dir = tempDir();
    await Bun.write(join(dir.path, 'credentials.json'), '{"token": 1}');
    expect(readLogin({ CALC_CONFIG_DIR: dir.path })).toBeNull();
  });
});

describe('resolveApiTarget', () => {
  test('--api-url, then CALC_API_URL, then the stored login, then the default', () => {
    using dir = tempDir();
    const env = { CALC_CONFIG_DIR: dir.path };
    expect(resolveApiTarget(undefined, env)).toMatchObject({ baseUrl: DEFAULT_API_URL, token: null });
    writeLogin(login('http://stored.example:8787'), env);
    expect(resolveApiTarget(undefined, env)).toMatchObject({
      baseUrl: 'http://stored.example:8787',
      token: 'stored.jwt.token',
    });
    expect(resolveApiTarget(undefined, { ...env, CALC_API_URL: 'http://env.example' }).baseUrl).toBe(
      'http://env.example',
    );
    expect(resolveApiTarget('http://flag.example/', { ...env, CALC_API_URL: 'http://env.example' }).baseUrl).toBe(
      'http://flag.example',
    );
  });

  test('the stored token goes only to the server that issued it; CALC_TOKEN goes anywhere', () => {
    using dir = tempDir();
    const env = { CALC_CONFIG_DIR: dir.path };
    writeLogin(login('http://stored.example'), env);
    const elsewhere = resolveApiTarget('http://other.example', env);
    expect(elsewhere.token).toBeNull();
    expect(elsewhere.missingTokenReason).toContain('the stored login is for http://stored.example');
    expect(resolveApiTarget('http://other.example', { ...env, CALC_TOKEN: 'env.jwt' }).token).toBe('env.jwt');
  });

  test('an expired stored login is no token, with the reason', () => {
    using dir = tempDir();
    const env = { CALC_CONFIG_DIR: dir.path };
    writeLogin(login('http://stored.example', '2020-01-01T00:00:00.000Z'), env);
    const target = resolveApiTarget(undefined, env);
    expect(target.token).toBeNull();
    expect(target.missingTokenReason).toContain('expired at 2020-01-01T00:00:00.000Z');
  });
});

describe('normaliseApiUrl', () => {
  test('keeps scheme, host, port and a path prefix; drops trailing slashes', () => {
    expect(normaliseApiUrl('HTTP://Calc.Example:80/')).toBe('http://calc.example');
    expect(normaliseApiUrl('https://example.com/calc/')).toBe('https://example.com/calc');
  });

  for (const bad of [
    'calc.example.com',
    'ftp://calc.example',
    'https://u:p@calc.example',
    'https://calc.example/?x=1',
    'https://calc.example/#x',
  ]) {
    test(`refuses ${bad}`, () => {
      expect(() => normaliseApiUrl(bad)).toThrow('is not a server address');
    });
  }
});
