import { randomUUID } from 'node:crypto';
import type { CalculatorResolver } from '../../calculator-resolver.ts';
import { templates } from '../../calculators/templates/index.ts';
import type { AccountRow } from '../../db/accounts-store.ts';
import type { CalculatorRecord, CalculatorSummary, CustomCalculatorsStore } from '../../db/custom-calculators-store.ts';
import { type CompiledDefinition, compile } from '../../definition/compile.ts';
import { evaluate, type Outputs } from '../../definition/evaluate.ts';
import { refusalMessage } from '../../definition/problems.ts';
import type { Definition, Problem, UnitSystem } from '../../definition/types.ts';
import { validateDefinition } from '../../definition/validate.ts';
import { AppError, invalidRequest } from '../../errors.ts';
import { calculatorLimitReached, planWithMoreCalculators, type Plan } from '../../plans.ts';
import type { CalculatorIds } from '../../require-calculator.ts';
import type { CalculatorJson, CreateBody, EvaluateBody, SummaryJson, VersionListJson } from './model.ts';

export interface AccountCalculatorsDeps {
  calculators: CustomCalculatorsStore;
  /** Resolves published calculators, cached (src/calculator-resolver.ts). */
  resolve: CalculatorResolver;
  /** Calculators of its own an account may have, per plan. */
  limits: Readonly<Record<Plan, number>>;
  now: () => Date;
  /** What the widget routes know of an account's ids: told of a creation or a deletion here. */
  calculatorIds: Pick<CalculatorIds, 'forget'>;
}

/** Versions kept per calculator: the newest this many (docs/calculators.md, "Drafts and versions"). */
const VERSIONS_KEPT = 20;

// A Map: ids like "__proto__" find nothing.
const catalogue = new Map(templates.map((template) => [template.definition.id, template]));

const notFound = (id: string) =>
  catalogue.has(id)
    ? new AppError(
        'calculator_not_found',
        `"${id}" is a calculator of the catalogue, not one of yours; create a copy of it ({"from": "${id}"}) to change it.`,
      )
    : new AppError('calculator_not_found', `You have no calculator "${id}".`);

const refused = (problems: Problem[]) => new AppError('invalid_definition', refusalMessage(problems), problems);

/**
 * Every problem of a definition sent to be saved, as 400 `invalid_definition`; under
 * `PUT …/:id` its id must also be that id (a calculator is not renamed: docs/calculators.md).
 */
function checkDefinition(value: unknown, pathId?: string): void {
  const problems = validateDefinition(value);
  const id = (value as { id?: unknown } | null)?.id;
  if (pathId !== undefined && typeof id === 'string' && id !== pathId)
    problems.push({
      path: 'id',
      message: `must be "${pathId}", the id of this calculator: to rename it, create a copy under the new id and delete this one`,
    });
  if (problems.length > 0) throw refused(problems);
}

/**
 * A definition in a request body, checked by the definition validator before the route's
 * schema sees it (Elysia's transform runs before validation, the sign-in check before
 * both), so a refusal lists every problem by path as 400 `invalid_definition` instead of
 * the schema's first complaint.
 */
export function checkDefinitionIn(body: unknown, pathId?: string): void {
  if (typeof body !== 'object' || body === null || !('definition' in body)) return;
  if ('from' in body) throw invalidRequest('Send either a definition or `from` (a calculator to copy), not both.');
  checkDefinition(body.definition, pathId);
}

function summaryJson(summary: CalculatorSummary): SummaryJson {
  return { ...summary, title: JSON.parse(summary.title) };
}

function calculatorJson({ row, published, status }: CalculatorRecord): CalculatorJson {
  return {
    id: row.id,
    status,
    draft: JSON.parse(row.draft),
    published: published === null ? null : JSON.parse(published),
    publishedVersion: row.publishedVersion,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function record(deps: AccountCalculatorsDeps, accountId: string, id: string): Promise<CalculatorRecord> {
  const found = await deps.calculators.find(accountId, id);
  if (!found) throw notFound(id);
  return found;
}

export async function listCalculators(deps: AccountCalculatorsDeps, accountId: string): Promise<SummaryJson[]> {
  return (await deps.calculators.list(accountId)).map(summaryJson);
}

export async function getCalculator(deps: AccountCalculatorsDeps, accountId: string, id: string) {
  return calculatorJson(await record(deps, accountId, id));
}

/** `<from>-copy`, then `<from>-copy-2`, …: the first that is neither the account's nor the catalogue's. */
function copyId(from: string, taken: ReadonlySet<string>): string {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '-copy' : `-copy-${n}`;
    // Ids are at most 64 characters: a long one is cut to leave room for the suffix.
    const id = `${from.slice(0, 64 - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(id) && !catalogue.has(id)) return id;
  }
}

/** The definition a create starts from: the one sent, or a copy of a template (or of an own calculator's draft). */
async function startingDefinition(deps: AccountCalculatorsDeps, accountId: string, body: CreateBody) {
  if ('definition' in body) return { definition: body.definition as Definition, copied: false };
  const template = catalogue.get(body.from);
  const source = template
    ? template.definition
    : (JSON.parse((await record(deps, accountId, body.from)).row.draft) as Definition);
  let id = body.id;
  if (id === undefined) {
    const own = await deps.calculators.list(accountId);
    id = copyId(body.from, new Set(own.map((calculator) => calculator.id)));
  }
  return { definition: { ...structuredClone(source), id }, copied: true };
}

/** A new draft: the definition sent (already checked), or a copy (`from`). 409 for a taken id, 403 past the plan's limit. */
export async function createCalculator(deps: AccountCalculatorsDeps, account: AccountRow, body: CreateBody) {
  const { definition, copied } = await startingDefinition(deps, account.id, body);
  // A copy of a template is valid; one of an older draft is checked as a new save is.
  if (copied) checkDefinition(definition);
  if (catalogue.has(definition.id))
    throw new AppError(
      'calculator_exists',
      `"${definition.id}" is the id of a catalogue calculator; choose another id for yours.`,
    );
  const at = deps.now().toISOString();
  const draft = JSON.stringify(definition);
  const limit = deps.limits[account.plan];
  const row = {
    accountId: account.id,
    id: definition.id,
    title: JSON.stringify(definition.title),
    draft,
    generation: randomUUID(),
    createdAt: at,
    updatedAt: at,
  };
  const outcome = await deps.calculators.create(row, limit);
  if (outcome === 'created') deps.calculatorIds.forget(account.id);
  if (outcome === 'exists') throw new AppError('calculator_exists', `You already have a calculator "${row.id}".`);
  if (outcome === 'limit') {
    const count = (await deps.calculators.list(account.id)).length;
    throw new AppError('plan_limit', calculatorLimitReached(account, deps.limits, count), {
      plan: account.plan,
      limit,
      planWithMore: planWithMoreCalculators(deps.limits, count),
    });
  }
  return getCalculator(deps, account.id, row.id);
}

/** Replaces the draft with a definition already checked (its id is this calculator's). */
export async function updateDraft(deps: AccountCalculatorsDeps, accountId: string, definition: Definition) {
  const saved = await deps.calculators.saveDraft(accountId, definition.id, {
    draft: JSON.stringify(definition),
    title: JSON.stringify(definition.title),
    updatedAt: deps.now().toISOString(),
  });
  if (!saved) throw notFound(definition.id);
  return getCalculator(deps, accountId, definition.id);
}

/** Deletes the calculator, its versions and its widget config; its usage history stays. */
export async function deleteCalculator(deps: AccountCalculatorsDeps, accountId: string, id: string) {
  if (!(await deps.calculators.delete(accountId, id))) throw notFound(id);
  deps.calculatorIds.forget(accountId);
  return { id, deleted: true as const };
}

/**
 * Publishes the draft as the next version, checked again (a draft saved under an older
 * release's rules may no longer pass). Publishing a draft that is the published version
 * changes nothing.
 */
export async function publishCalculator(deps: AccountCalculatorsDeps, accountId: string, id: string) {
  const { row } = await record(deps, accountId, id);
  checkDefinition(JSON.parse(row.draft));
  const published = await deps.calculators.publish(accountId, id, row.draft, deps.now().toISOString(), VERSIONS_KEPT);
  if (!published) throw notFound(id);
  return getCalculator(deps, accountId, id);
}

export async function listVersions(
  deps: AccountCalculatorsDeps,
  accountId: string,
  id: string,
): Promise<VersionListJson> {
  const { row } = await record(deps, accountId, id);
  return { id, publishedVersion: row.publishedVersion, versions: await deps.calculators.versions(accountId, id) };
}

/** Makes a kept version the draft; what widgets load does not change until it is published. */
export async function restoreVersion(deps: AccountCalculatorsDeps, accountId: string, id: string, version: number) {
  await record(deps, accountId, id);
  const definition = await deps.calculators.version(accountId, id, version);
  if (definition === undefined)
    throw new AppError(
      'calculator_not_found',
      `"${id}" has no version ${version}; the newest ${VERSIONS_KEPT} versions are kept (…/versions lists them).`,
    );
  const restored = await deps.calculators.saveDraft(accountId, id, {
    draft: definition,
    title: JSON.stringify((JSON.parse(definition) as Definition).title),
    updatedAt: deps.now().toISOString(),
  });
  if (!restored) throw notFound(id);
  return getCalculator(deps, accountId, id);
}

const perSystem = <T>(value: T | { metric: T; imperial: T }, system: UnitSystem): T =>
  typeof value === 'object' && value !== null && 'metric' in value ? value[system] : value;

/**
 * The values evaluated: those sent, and for each input left out its default in the unit
 * system, as a widget starts. A quantity shown through a display alias (bmi's weight for
 * weightKg) counts as given when either of its keys is.
 */
function withDefaults(definition: Definition, inputs: EvaluateBody['inputs'], system: UnitSystem) {
  // No prototype: keys such as "__proto__" are plain keys here.
  const values: Record<string, unknown> = Object.assign(Object.create(null), inputs);
  const aliased = new Set(
    definition.inputs.flatMap((input) => (input.kind === 'number' && input.aliasOf ? [input.aliasOf] : [])),
  );
  for (const input of definition.inputs) {
    if (aliased.has(input.key) || Object.hasOwn(inputs, input.key)) continue;
    if (input.kind === 'number' && input.aliasOf && Object.hasOwn(inputs, input.aliasOf)) continue;
    values[input.key] = input.kind === 'number' ? perSystem(input.default, system) : input.default;
  }
  return values;
}

/** The server's evaluation of the published version, or of the draft. */
export async function evaluateCalculator(
  deps: AccountCalculatorsDeps,
  accountId: string,
  id: string,
  body: EvaluateBody,
): Promise<{ outputs: Outputs }> {
  if (catalogue.has(id)) throw notFound(id);
  let compiled: CompiledDefinition;
  if (body.draft) {
    const draft = JSON.parse((await record(deps, accountId, id)).row.draft) as Definition;
    // Valid when saved; one that an older release saved and this one refuses says why, as a publish would.
    checkDefinition(draft);
    const result = compile(draft);
    // The validator compiles every formula: a draft it passes compiles.
    if (!result.ok) throw new Error(`the valid draft of ${id} does not compile`);
    compiled = result.compiled;
  } else {
    const resolved = await deps.resolve(accountId, id);
    if (!resolved) {
      await record(deps, accountId, id);
      throw new AppError(
        'calculator_not_found',
        `"${id}" has no published version yet: publish it, or evaluate the draft with "draft": true.`,
      );
    }
    compiled = resolved.compiled;
  }
  const { definition, systems } = compiled;
  if (body.units !== undefined && !systems.includes(body.units))
    throw invalidRequest(`units: "${id}" is shown in ${systems.join(' and ')} units only.`);
  const system = body.units ?? (systems[0] as UnitSystem);
  return { outputs: evaluate(compiled, withDefaults(definition, body.inputs, system), system) };
}
