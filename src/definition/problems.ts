import type { Problem } from './types.ts';

/** `outputs[1].formula: unknown name `x` at 4`, or the message alone for the definition as a whole. */
export const describeProblem = (problem: Problem): string =>
  problem.path === '' ? problem.message : `${problem.path}: ${problem.message}`;

/**
 * The sentence of a refused definition (400 `invalid_definition`, whose `details` list every
 * problem), so the server and `calc calculators validate` say the same.
 */
export function refusalMessage(problems: readonly Problem[]): string {
  const [first] = problems;
  if (!first) return 'The definition has no problems.';
  return problems.length === 1
    ? `The definition has a problem: ${describeProblem(first)}.`
    : `The definition has ${problems.length} problems, all listed in the details; the first: ${describeProblem(first)}.`;
}
