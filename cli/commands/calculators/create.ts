import { Flags } from '@oclif/core';
import type { AccountCalculatorBody } from '../../../src/api-bodies.ts';
import { invalidFlag } from '../../base-command.ts';
import { calcIdSegment } from '../../lib/calc-id.ts';
import { definitionFile, readDefinitionFile } from '../../lib/definition-file.ts';
import { OwnerCommand } from '../../owner-command.ts';

export default class CalculatorsCreate extends OwnerCommand {
  static override summary = 'Create a calculator of your own (a draft): from a definition file, or as a copy.';
  static override description =
    'Prints the new id. --from copies a catalogue calculator (or one of yours: its draft); the copy is named --id, ' +
    'else <from>-copy (then -copy-2, …). With --file, --id replaces the id in the file. The draft is not live until ' +
    '`calc calculators publish ID`. With --json, stdout holds the body of POST /v1/account/calculators.';
  static override examples = [
    '<%= config.bin %> calculators create --file roof-quote.json',
    '<%= config.bin %> calculators create --from bmi',
    '<%= config.bin %> calculators create --from loan --id car-loan',
  ];
  static override flags = {
    file: Flags.string({ ...definitionFile, exactlyOne: ['file', 'from'] }),
    from: Flags.string({
      description: 'a calculator to copy: a catalogue id, or one of yours',
      exactlyOne: ['file', 'from'],
    }),
    id: Flags.string({ description: 'the id of the new calculator' }),
  };

  async run() {
    const { flags } = await this.parse(CalculatorsCreate);
    const api = this.api(flags);
    api.ensureSignedIn();
    if (flags.id !== undefined) calcIdSegment(flags.id);
    let request: unknown;
    if (flags.file !== undefined) {
      const definition = await readDefinitionFile(flags.file);
      if (flags.id !== undefined) {
        if (typeof definition !== 'object' || definition === null || Array.isArray(definition))
          throw invalidFlag(`${flags.file} does not hold a definition (a JSON object), so --id has nothing to rename.`);
        (definition as Record<string, unknown>).id = flags.id;
      }
      request = { definition };
    } else {
      request = { from: calcIdSegment(flags.from as string), ...(flags.id === undefined ? {} : { id: flags.id }) };
    }
    const { body } = await api.post<AccountCalculatorBody>('/v1/account/calculators', { body: request });
    this.log(body.id);
    this.logToStderr(`Created ${body.id} as a draft; publish it with \`calc calculators publish ${body.id}\`.`);
    return body;
  }
}
