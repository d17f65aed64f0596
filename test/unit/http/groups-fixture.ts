import { AppError } from '../../../src/errors.ts';
import { createAccessLog } from '../../../src/http/access-log.ts';
import type { RouteGroup } from '../../../src/http/route-group.ts';
import { createLogger } from '../../../src/logger.ts';

/** A logger that keeps its lines, the access log on it, and two groups to mount routes in. */
export function conventionsFixture() {
  const lines: string[] = [];
  const logger = createLogger((line) => lines.push(line));
  const accessLog = createAccessLog(logger);
  /** Refuses bodies that ask for it, as a rate limit would. */
  const refuse = {
    name: 'refuse-on-request',
    before(_request: Request, body: unknown) {
      if ((body as { refuse?: unknown } | undefined)?.refuse === 'yes')
        throw new AppError('rate_limited', 'Too many requests.', undefined, { 'retry-after': '7' });
    },
  };
  const open: RouteGroup = { name: 'open', cors: 'any-origin', body: { widget: true }, concerns: [refuse] };
  const closed: RouteGroup = { name: 'closed', cors: 'same-origin', body: { widget: false }, concerns: [] };
  /** The access-log lines written so far. */
  const requests = () => lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');
  return {
    logger,
    /** Every log line written so far. */
    lines,
    accessLog,
    open,
    closed,
    requests,
    /** Elysia writes a line after the answer is sent: waits until `count` lines are there. */
    async loggedRequests(count: number) {
      const deadline = Date.now() + 5000;
      while (requests().length < count && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
      return requests();
    },
  };
}
