/** The real app inside the bench process, for the benches that drive it from a browser. */
import { join } from 'node:path';
import { createApp, type AppOptions } from '../../src/app.ts';
import { loadServerConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/client.ts';
import { silentLogger } from '../../src/logger.ts';

export interface InProcessApp extends AsyncDisposable {
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
}

/**
 * The app on a real SQLite database under `work`, listening on 127.0.0.1 (a free port),
 * with fresh random secrets and no log output (logging would measure the terminal).
 */
export function startInProcessApp(work: string, prefill?: AppOptions['prefill']): InProcessApp {
  const config = loadServerConfig({ data: join(work, 'data'), host: '127.0.0.1', port: 0 }, {});
  const database = openDatabase(config.dataDir);
  const { app } = createApp({
    config,
    database,
    jwtSecret: crypto.getRandomValues(new Uint8Array(32)),
    headerKey: crypto.getRandomValues(new Uint8Array(32)),
    logger: silentLogger,
    prefill,
  });
  app.listen({ hostname: '127.0.0.1', port: 0 });
  const port = app.server?.port;
  if (!port) throw new Error('the app did not listen');
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async [Symbol.asyncDispose]() {
      await app.stop(true);
      database.close();
    },
  };
}
