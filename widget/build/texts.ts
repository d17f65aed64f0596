/**
 * Every English text a visitor can see: the widget's own (texts.ts, and the results
 * form's in results.ts) and, for each
 * catalogue template, its title, the shown inputs' labels, units, visitor help and
 * options, and the outputs' labels, units and band names. These are the keys each
 * language pack must translate; the bundle keeps only these keys of a pack. (An owner's
 * calculator brings its texts in its own languages: they are not in the packs.)
 */
import { templates } from '../../src/calculators/index.ts';
import type { PerSystem } from '../../src/definition/systems.ts';
import { textIn } from '../../src/definition/text.ts';
import type { Text } from '../../src/definition/types.ts';
import { displayedFields, visitorHelp } from '../src/form-model.ts';
import { TEXTS as RESULTS_TEXTS } from '../src/results.ts';
import { TEXTS } from '../src/texts.ts';

const english = (text: Text): string => textIn(text, 'en');

/** Unit texts, with the currency placeholder left out ('currency/L' shows 'L'). */
function unitTexts(unit: PerSystem<Text> | undefined): string[] {
  if (unit === undefined) return [];
  const units = typeof unit === 'object' && 'metric' in unit ? [unit.metric, unit.imperial] : [unit];
  return units.map((text) => english(text).replace(/^currency\/?/, '')).filter((text) => text !== '');
}

export function translatableTexts(): string[] {
  const texts = new Set<string>([...Object.values(TEXTS), ...Object.values(RESULTS_TEXTS)]);
  for (const { definition } of templates) {
    texts.add(english(definition.title));
    for (const field of displayedFields(definition)) {
      texts.add(english(field.label));
      const help = visitorHelp(field);
      if (help) texts.add(english(help));
      if (field.kind === 'select') for (const option of field.options) texts.add(english(option.label));
      else if (field.kind === 'number') for (const unit of unitTexts(field.unit)) texts.add(unit);
    }
    for (const output of definition.outputs) {
      texts.add(english(output.label));
      // Only the number style has a unit of its own (an amount shows its currency, a percentage `%`).
      for (const unit of unitTexts(output.format?.unit)) texts.add(unit);
      const bandSets = output.bandsBy ? Object.values(output.bandsBy.bands) : [output.bands ?? []];
      for (const band of bandSets.flat()) texts.add(english(band.label));
    }
  }
  return [...texts];
}

if (import.meta.main) console.log(JSON.stringify(translatableTexts(), null, 1));
