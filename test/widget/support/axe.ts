/** axe-core in a page, as the accessibility tests run it: only serious and critical findings count. */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from '../../helpers/process.ts';

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown; failureSummary?: string }[];
}

/** Runs axe on the whole page; injected through the DevTools protocol, so a strict page policy does not stop it. */
export async function seriousAxeFindings(page: Page): Promise<AxeFinding[]> {
  await page.evaluate(await Bun.file(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js')).text());
  const findings = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: AxeFinding[] }> } }).axe;
    return (await axe.run(document)).violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })),
    }));
  });
  return findings.filter((finding) => finding.impact === 'serious' || finding.impact === 'critical');
}
