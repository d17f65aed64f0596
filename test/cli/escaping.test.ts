import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/client.ts';
import { printable, printableLines } from '../../cli/lib/printable.ts';
import { formatTable } from '../../cli/lib/table.ts';
import { runCommand, SOURCE_CLI } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';

// What an attacker would put in text that reaches an operator's terminal.
const HOSTILE = [
  ['clear screen', 'a\u001b[2Jb@x.example'],
  ['window title', 'a\u001b]0;pwned\u0007b@x.example'],
  ['carriage return overwrite', 'evil@x.example\rgood@x.example'],
  ['8-bit CSI', 'a\u009b2Jb@x.example'],
  ['bidi override', 'a\u202eelpmaxe.x@b'],
  ['zero-width joiner', 'ad\u200dmin@x.example'],
  ['backspace', 'good\b\b\b\bevil@x.example'],
  ['newline inside a cell', 'a@x.example\nFAKE ROW'],
] as const;

/** Any byte or character that a terminal would act on, or that hides itself. */
const UNSAFE = /[\p{Cc}\p{Cf}]/u;

describe('the shared escaping helper', () => {
  test.each(HOSTILE)('%s: a value is quoted and escaped', (_name, text) => {
    const shown = printable(text);
    expect(shown).not.toMatch(UNSAFE);
    // Still readable, and reversible: the escapes are JSON's.
    expect(JSON.parse(shown)).toBe(text);
  });

  test('harmless text is left as it is', () => {
    expect(printable('owner@shop.example')).toBe('owner@shop.example');
    expect(printable('Zoë — café')).toBe('Zoë — café');
  });

  test('messages keep their line feeds and lose everything else', () => {
    expect(printableLines('line one\nline \u001b[31mtwo\u0007')).toBe('line one\nline \\u001b[31mtwo\\u0007');
  });

  test('a hostile table: every cell escaped, one line per row, columns intact', () => {
    const rows = HOSTILE.map(([name, text]) => [text, name]);
    const table = formatTable(['EMAIL', 'WHAT'], rows);
    const lines = table.split('\n');
    expect(lines).toHaveLength(HOSTILE.length + 1);
    for (const line of lines) expect(line).not.toMatch(UNSAFE);
    const whatColumn = (lines[0] ?? '').indexOf('WHAT');
    lines.slice(1).forEach((line, i) => {
      expect(line.slice(whatColumn)).toBe(HOSTILE[i]?.[0] ?? '');
    });
  });
});

describe('calc admin accounts list with hostile emails in the store', () => {
  test('prints escapes, never the raw characters; --json keeps the real values', async () => {
    using dir = tempDir();
    const data = join(dir.path, 'data');
    // Rows as an older version (before emails were checked) could have stored them.
    const database = openDatabase(data);
    HOSTILE.forEach(([, email], i) => {
      database.sqlite
        .query('INSERT INTO accounts (id, email, password_hash, plan, api_key, created_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(`acct_${i}`, email, 'h', 'free', `pk_hostile${i}`, `2026-01-0${i + 1}T00:00:00.000Z`);
    });
    database.close();

    const listed = await runCommand(SOURCE_CLI, ['admin', 'accounts', 'list', '--data', data]);
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).not.toMatch(/(?!\n)[\p{Cc}\p{Cf}]/u);
    expect(listed.stdout).toContain('\\u001b[2J');
    expect(listed.stdout).toContain('\\u202e');
    expect(listed.stdout.trim().split('\n')).toHaveLength(HOSTILE.length + 1);

    const json = await runCommand(SOURCE_CLI, ['admin', 'accounts', 'list', '--data', data, '--json']);
    const emails = (JSON.parse(json.stdout) as { accounts: { email: string }[] }).accounts.map((a) => a.email);
    expect(emails.sort()).toEqual(HOSTILE.map(([, email]) => email).sort());
  });
});
