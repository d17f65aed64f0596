/**
 * A catalogue template made ready to compute, as the widget computes it: every output by
 * the shared evaluator, and no result at all (null) when every output is null, which is
 * what the catalogue's compute functions answered for inputs they refused.
 */
import { getTemplate } from '../../../../src/calculators/index.ts';
import { compile, type CompiledDefinition } from '../../../../src/definition/compile.ts';
import { evaluate, type Outputs, type Values } from '../../../../src/definition/evaluate.ts';
import type { Definition, Output, UnitSystem } from '../../../../src/definition/types.ts';

export interface CatalogueCalculator {
  definition: Definition;
  compiled: CompiledDefinition;
  compute(values: Values, system: UnitSystem): Outputs | null;
  output(key: string): Output;
}

export function catalogue(id: string): CatalogueCalculator {
  const definition = getTemplate(id)?.definition;
  if (!definition) throw new Error(`no template ${id}`);
  const result = compile(definition);
  if (!result.ok) throw new Error(`${id} does not compile`);
  const { compiled } = result;
  return {
    definition,
    compiled,
    compute(values, system) {
      const outputs = evaluate(compiled, values, system);
      return Object.values(outputs).every((value) => value === null) ? null : outputs;
    },
    output(key) {
      const output = definition.outputs.find((candidate) => candidate.key === key);
      if (!output) throw new Error(`${id} has no output ${key}`);
      return output;
    },
  };
}
