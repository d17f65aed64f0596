import { money } from './parts.ts';
import type { Template } from './template.ts';

// One key per quantity, read in the displayed unit system (km, L/100 km and price per
// litre when metric; miles, US mpg and price per US gallon when imperial). L/100 km and
// mpg are reciprocal measures, so each system has its own formula: no conversion.
export const fuelCost: Template = {
  category: 'everyday',
  notes: 'Imperial uses US gallons (3.785 L). Values are read in the displayed unit system.',
  definition: {
    id: 'fuel-cost',
    title: 'Fuel Cost of a Trip',
    description: 'Estimates how much fuel a trip needs and what it costs from distance, fuel economy and fuel price.',
    unitSystems: ['metric', 'imperial'],
    inputs: [
      {
        key: 'distance',
        kind: 'number',
        label: 'Distance',
        unit: { metric: 'km', imperial: 'mi' },
        min: { metric: 0, imperial: 0 },
        max: { metric: 100_000, imperial: 60_000 },
        default: { metric: 300, imperial: 200 },
        help: 'Trip distance in kilometres (metric) or miles (imperial).',
      },
      {
        key: 'fuelEconomy',
        kind: 'number',
        label: 'Fuel economy',
        unit: { metric: 'L/100 km', imperial: 'mpg (US)' },
        min: { metric: 1, imperial: 5 },
        max: { metric: 50, imperial: 150 },
        default: { metric: 7, imperial: 30 },
        step: 0.1,
        help: 'Litres per 100 km (metric) or miles per US gallon (imperial).',
      },
      {
        key: 'fuelPrice',
        kind: 'number',
        label: 'Fuel price',
        unit: { metric: 'currency/L', imperial: 'currency/gal' },
        min: { metric: 0, imperial: 0 },
        max: { metric: 20, imperial: 20 },
        default: { metric: 1.8, imperial: 3.5 },
        step: 0.01,
        help: 'Price per litre (metric) or per US gallon (imperial).',
      },
    ],
    variables: [{ key: 'fuelNeeded', formula: 'imperial ? distance / fuelEconomy : distance * fuelEconomy / 100' }],
    outputs: [
      {
        key: 'fuel',
        label: 'Fuel needed',
        formula: 'fuelNeeded',
        format: { style: 'number', decimals: 1, unit: { metric: 'L', imperial: 'gal' } },
      },
      { key: 'cost', label: 'Trip cost', formula: 'fuelNeeded * fuelPrice', format: money },
    ],
  },
};
