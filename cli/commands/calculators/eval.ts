import { Flags } from '@oclif/core';
import type { AccountCalculatorBody, EvaluateAnswerBody } from '../../../src/api-bodies.ts';
import { textIn } from '../../../src/definition/text.ts';
import type { Definition } from '../../../src/definition/types.ts';
import { DEFAULT_FORMAT } from '../../../src/definition/view.ts';
import { invalidFlag } from '../../base-command.ts';
import { calcIdSegment, ownCalcIdArg } from '../../lib/calc-id.ts';
import { formatTable } from '../../lib/table.ts';
import { OwnerCommand } from '../../owner-command.ts';

export default class CalculatorsEval extends OwnerCommand {
  static override summary = 'Evaluate one of your calculators on the server, as the widget would.';
  static override description =
    'The published version, or the draft with --draft. Each --set gives an input by key (numbers, option values of ' +
    'selects, true/false for toggles); inputs left out take their default. An output that is not a finite number ' +
    'shows as —. With --json, stdout holds the body of POST /v1/account/calculators/ID/evaluate.';
  static override examples = [
    '<%= config.bin %> calculators eval roof-quote --set area=180 --set material=metal',
    '<%= config.bin %> calculators eval bmi-copy --set weight=154 --set height=70 --units imperial --draft',
  ];
  static override args = { id: ownCalcIdArg };
  static override flags = {
    set: Flags.string({ char: 's', description: 'an input value, key=value (repeatable)', multiple: true }),
    draft: Flags.boolean({ description: 'evaluate the draft instead of the published version' }),
    units: Flags.string({
      description: "the unit system (default: the calculator's first)",
      options: ['metric', 'imperial'],
    }),
  };

  async run() {
    const { args, flags } = await this.parse(CalculatorsEval);
    const api = this.api(flags);
    const id = calcIdSegment(args.id);
    // The definition says how each value is read: `--set finish=12` is an option value, not a number.
    const { body: calculator } = await api.get<AccountCalculatorBody>(`/v1/account/calculators/${id}`);
    const definition = (flags.draft ? calculator.draft : (calculator.published ?? calculator.draft)) as Definition;
    const inputs = Object.fromEntries((flags.set ?? []).map((entry) => inputValue(definition, entry)));
    const { body } = await api.post<EvaluateAnswerBody>(`/v1/account/calculators/${id}/evaluate`, {
      body: { inputs, ...(flags.draft ? { draft: true } : {}), ...(flags.units ? { units: flags.units } : {}) },
    });
    this.log(
      formatTable(
        ['OUTPUT', 'LABEL', 'VALUE'],
        definition.outputs.map((output) => {
          const value = body.outputs[output.key];
          const { decimals } = output.format ?? DEFAULT_FORMAT;
          return [output.key, textIn(output.label, 'en'), typeof value === 'number' ? value.toFixed(decimals) : '—'];
        }),
        [2],
      ),
    );
    return body;
  }
}

/** `key=value` read as the input's kind reads it; an unknown key or an unreadable value is refused before anything is sent. */
function inputValue(definition: Definition, entry: string): [string, number | string | boolean] {
  const equals = entry.indexOf('=');
  if (equals < 1) throw invalidFlag(`--set ${entry}: write key=value, such as --set area=120.`);
  const [key, text] = [entry.slice(0, equals), entry.slice(equals + 1)];
  const input = definition.inputs.find((candidate) => candidate.key === key);
  if (!input)
    throw invalidFlag(
      `${definition.id} has no input "${key}"; its inputs: ${definition.inputs.map((i) => i.key).join(', ')}.`,
    );
  if (input.kind === 'select') {
    if (!input.options.some((option) => option.value === text))
      throw invalidFlag(`--set ${key}: must be one of ${input.options.map((option) => option.value).join(', ')}.`);
    return [key, text];
  }
  if (input.kind === 'toggle') {
    if (/^(true|yes|on|1)$/i.test(text)) return [key, true];
    if (/^(false|no|off|0)$/i.test(text)) return [key, false];
    throw invalidFlag(`--set ${key}: must be true or false.`);
  }
  const number = text.trim() === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(number)) throw invalidFlag(`--set ${key}: must be a number, not "${text}".`);
  return [key, number];
}
