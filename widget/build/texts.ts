/**
 * Every English text a visitor can see: the widget's own (texts.ts) and, for each
 * calculator, its title, the shown fields' labels, units, visitor help and options, and
 * the results' labels, units and band names. These are the keys each language pack
 * must translate; the bundle keeps only these keys of a pack.
 */
import { calculators } from '../../src/calculators/index.ts';
import type { PerSystem } from '../../src/calculators/definition.ts';
import { displayedFields, visitorHelp } from '../src/form-model.ts';
import { TEXTS } from '../src/texts.ts';

/** Unit texts, with the currency placeholder left out ('currency/L' shows 'L'). */
function unitTexts(unit: PerSystem<string> | undefined): string[] {
  if (unit === undefined) return [];
  const units = typeof unit === 'string' ? [unit] : [unit.metric, unit.imperial];
  return units.map((text) => text.replace(/^currency\/?/, '')).filter((text) => text !== '');
}

export function translatableTexts(): string[] {
  const texts = new Set<string>(Object.values(TEXTS));
  for (const calculator of calculators) {
    texts.add(calculator.title);
    for (const field of displayedFields(calculator)) {
      texts.add(field.label);
      const help = visitorHelp(field);
      if (help) texts.add(help);
      if (field.kind === 'select') for (const option of field.options) texts.add(option.label);
      else for (const unit of unitTexts(field.unit)) texts.add(unit);
    }
    for (const result of calculator.results) {
      texts.add(result.label);
      for (const unit of unitTexts(result.unit)) texts.add(unit);
      const bandSets = result.bandsBy ? Object.values(result.bandsBy.bands) : [result.bands ?? []];
      for (const band of bandSets.flat()) texts.add(band.label);
    }
  }
  return [...texts];
}

if (import.meta.main) console.log(JSON.stringify(translatableTexts(), null, 1));
