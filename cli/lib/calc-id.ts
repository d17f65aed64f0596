import { Args } from '@oclif/core';
import { CALC_ID_PATTERN } from '../../src/definition/id.ts';
import { CliFailure } from '../base-command.ts';

/** The CALCID argument of `config …` and `embed`. */
export const calcIdArg = Args.string({
  description: 'calculator id, as listed by `calc calculators` (e.g. bmi)',
  required: true,
});

/** The ID argument of the commands on one of the owner's own calculators (`calc calculators publish ID`, …). */
export const ownCalcIdArg = Args.string({
  description: 'the id of one of your calculators, as listed by `calc calculators`',
  required: true,
});

const CALC_ID = new RegExp(CALC_ID_PATTERN);

/**
 * The id checked before it goes into a URL path: "..", "/" or "?" in it would address
 * another route, so such a value never reaches the server.
 */
export function calcIdSegment(id: string): string {
  if (!CALC_ID.test(id))
    throw new CliFailure(
      `"${id}" is not a calculator id: lower-case letters, digits and dashes, as listed by \`calc calculators\`.`,
    );
  return id;
}
