import { Flags } from '@oclif/core';
import type { Problem } from '../../../src/definition/types.ts';
import { refusalMessage } from '../../../src/definition/problems.ts';
import { validateDefinition } from '../../../src/definition/validate.ts';
import { BaseCommand, CliFailure, EXIT } from '../../base-command.ts';
import { definitionFile, readDefinitionFile } from '../../lib/definition-file.ts';

export default class CalculatorsValidate extends BaseCommand {
  static override summary = 'Check a definition file offline, with the rules and messages of the server.';
  static override description =
    'Needs no server and no sign-in: the same validator the server runs when a draft is saved. A file with problems ' +
    'exits 1 and lists every one by path, with the character position of a formula problem; with --json, stderr then ' +
    "holds the server's 400 answer (`invalid_definition` with every problem in `details`). A valid file exits 0 " +
    '(--json: {"valid": true, "id": …}).';
  static override examples = [
    '<%= config.bin %> calculators validate --file roof-quote.json',
    'cat roof-quote.json | <%= config.bin %> calculators validate --file -',
  ];
  static override flags = { file: Flags.string({ ...definitionFile, required: true }) };

  async run() {
    const { flags } = await this.parse(CalculatorsValidate);
    const definition = await readDefinitionFile(flags.file);
    const problems: Problem[] = validateDefinition(definition);
    if (problems.length > 0)
      throw new CliFailure(refusalMessage(problems), EXIT.failure, 'invalid_definition', problems);
    const id = (definition as { id: string }).id;
    this.log(`${flags.file === '-' ? 'Standard input' : flags.file} is a valid definition of ${id}.`);
    return { valid: true, id };
  }
}
