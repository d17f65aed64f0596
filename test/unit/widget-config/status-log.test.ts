import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { openDatabase } from '../../../src/db/client.ts';
import { createWidgetConfigStore } from '../../../src/db/widget-config-store.ts';
import { createStatusLog, type WebhookStatus } from '../../../src/modules/widget-config/status-log.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

/** When the webhook was last saved, before every outcome below. */
const SAVED = '2026-11-25T09:00:00.000Z';

const outcome = (at: string, kind: WebhookStatus['outcome']): WebhookStatus => ({
  at,
  outcome: kind,
  httpStatus: kind === 'ok' ? 200 : null,
  durationMs: 12,
});

test('the newest outcome wins, whether this server holds it in memory or another server stored it', () => {
  using dir = tempDir();
  const database = openDatabase(join(dir.path, 'data'));
  try {
    const log = createStatusLog(createWidgetConfigStore(database.db));
    const mine = outcome('2026-11-25T10:00:00.000Z', 'ok');
    log.record('a1', 'bmi', mine, performance.now());
    // Another server stored a newer one meanwhile: this server's unflushed one is older.
    const theirs = outcome('2026-11-25T10:00:01.000Z', 'timeout');
    expect(log.get('a1', 'bmi', JSON.stringify(theirs), SAVED)).toEqual(theirs);
    // An older one stored elsewhere does not hide this server's newer one.
    expect(log.get('a1', 'bmi', JSON.stringify(outcome('2026-11-25T09:59:00.000Z', 'http_error')), SAVED)).toEqual(
      mine,
    );
    expect(log.get('a1', 'bmi', null, SAVED)).toEqual(mine);
    expect(log.get('a1', 'other', JSON.stringify(theirs), SAVED)).toEqual(theirs);
    expect(log.get('a1', 'other', 'not json', SAVED)).toBeNull();
  } finally {
    database.close();
  }
});

test("an outcome from before the webhook's last save is not shown, even when another server saved it", () => {
  using dir = tempDir();
  const database = openDatabase(join(dir.path, 'data'));
  try {
    const log = createStatusLog(createWidgetConfigStore(database.db));
    const old = outcome('2026-11-25T10:00:00.000Z', 'timeout');
    log.record('a1', 'bmi', old, performance.now());
    expect(log.get('a1', 'bmi', null, '2026-11-25T09:59:59.999Z')).toEqual(old);
    // Saved anew at 10:00:01 on another server: this server's unflushed outcome is about the old one.
    expect(log.get('a1', 'bmi', null, '2026-11-25T10:00:01.000Z')).toBeNull();
  } finally {
    database.close();
  }
});
