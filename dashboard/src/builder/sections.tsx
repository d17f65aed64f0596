/**
 * The builder's sections, one per part of a definition (docs/calculators.md): the
 * calculator itself, inputs, variables, outputs with their formats and bands, and tables.
 */
import { useEffect, useState } from 'preact/hooks';
import { asList, asObject, child, freeKey, idOf, inputOfKind, type Json, type Loc, ROOT, usedKeys } from './draft.ts';
import { FUNCTIONS } from '../../../src/formula/functions.ts';
import { bind, useEditor } from './editor-context.ts';
import { Check, Choice, GroupProblems, NumberInput, PerSystem, TextField, TextInput } from './fields.tsx';
import { ItemActions, ItemList } from './item-list.tsx';

const keyOf = (entry: Json): string => {
  const key = asObject(entry).key;
  return typeof key === 'string' && key !== '' ? ` (${key})` : '';
};

const UNIT_SYSTEMS = [
  ['imperial', 'Imperial only'],
  ['metric,imperial', 'Metric and imperial, metric first'],
  ['imperial,metric', 'Imperial and metric, imperial first'],
] as const;

export function CalculatorSection() {
  const editor = useEditor();
  const draft = asObject(editor.draft);
  const systems = bind(editor, child(ROOT, 'unitSystems'));
  editor.register('');
  return (
    <section class="card" aria-labelledby="calculator-heading" id={idOf('')} tabIndex={-1}>
      <h2 id="calculator-heading">Calculator</h2>
      <p class="hint">
        Id <code>{String(draft.id)}</code>: embed snippets, pre-fill and usage name it; it cannot change.
      </p>
      <GroupProblems path="id" />
      <GroupProblems path="" />
      <TextField bound={bind(editor, child(ROOT, 'title'))} label="Title" />
      <TextField bound={bind(editor, child(ROOT, 'description'))} label="Description" optional />
      <Choice
        bound={{ ...systems, value: Array.isArray(systems.value) ? systems.value.join(',') : systems.value }}
        label="Unit systems"
        none="Metric only"
        options={UNIT_SYSTEMS}
        hint="With two, visitors switch between them; a number input's range, default and unit may differ by system."
        onChoose={(value) => systems.set(value === '' ? undefined : value.split(','))}
      />
    </section>
  );
}

/** The names a formula may use, as a hint under it. */
function namesHint(draft: Json, variablesBefore: number): string {
  const root = asObject(draft);
  const names = [
    ...asList(root.inputs).flatMap((entry) => {
      const input = asObject(entry);
      return typeof input.key === 'string' && input.aliasOf === undefined ? [input.key] : [];
    }),
    ...asList(root.variables)
      .slice(0, variablesBefore)
      .flatMap((entry) => (typeof asObject(entry).key === 'string' ? [asObject(entry).key as string] : [])),
  ];
  const tables = Object.keys(asObject(root.tables));
  return `Names: ${names.length > 0 ? names.join(', ') : 'none yet'}${
    tables.length > 0 ? `; tables (in lookup): ${tables.join(', ')}` : ''
  }.`;
}

function NumberInputFields(props: { loc: Loc; input: Record<string, Json> }) {
  const editor = useEditor();
  const { loc, input } = props;
  const numbers = asList(asObject(editor.draft).inputs).flatMap((entry) => {
    const other = asObject(entry);
    return other.kind === 'number' && typeof other.key === 'string' && other.key !== input.key
      ? [[other.key, other.key] as const]
      : [];
  });
  return (
    <>
      <div class="row">
        {(['min', 'max', 'default'] as const).map((name) => (
          <PerSystem
            key={name}
            loc={child(loc, name)}
            render={(bound, suffix) => (
              <NumberInput bound={bound} label={`${name.charAt(0).toUpperCase()}${name.slice(1)}${suffix}`} />
            )}
          />
        ))}
        <NumberInput bound={bind(editor, child(loc, 'step'))} label="Step" optional />
      </div>
      <PerSystem
        loc={child(loc, 'unit')}
        render={(bound, suffix) => <TextField bound={bound} label={`Unit${suffix}`} optional />}
      />
      {input.aliasOf !== undefined && (
        <Choice
          bound={bind(editor, child(loc, 'aliasOf'))}
          label="Display form of"
          none="None"
          options={numbers}
          hint="Shown to visitors in place of that input, in the displayed unit system; formulas use the other input."
        />
      )}
    </>
  );
}

function SelectInputFields(props: { loc: Loc; input: Record<string, Json> }) {
  const editor = useEditor();
  const { loc, input } = props;
  const values = asList(input.options).flatMap((option) => {
    const value = asObject(option).value;
    return typeof value === 'string' ? [[value, value] as const] : [];
  });
  return (
    <>
      <ItemList
        loc={child(loc, 'options')}
        title="Options"
        nested
        min={1}
        name={(index, entry) => {
          const value = asObject(entry).value;
          return `Option ${index + 1}${typeof value === 'string' && value !== '' ? ` (${value})` : ''}`;
        }}
        make={() => {
          const taken = new Set(values.map(([value]) => value));
          return { value: freeKey('option', taken), label: 'New option', number: 0 };
        }}
        addLabel="Add option"
      >
        {(option) => (
          <div class="row">
            <TextInput bound={bind(editor, child(option, 'value'))} label="Value" code />
            <TextField bound={bind(editor, child(option, 'label'))} label="Label" />
            <NumberInput
              bound={bind(editor, child(option, 'number'))}
              label="Number"
              optional
              hint="Its value in formulas."
            />
          </div>
        )}
      </ItemList>
      <Choice bound={bind(editor, child(loc, 'default'))} label="Default" options={values} />
    </>
  );
}

/** "Shown only when": an earlier select has one of its values, or an earlier toggle is on or off. */
function VisibleIf(props: { loc: Loc; index: number }) {
  const editor = useEditor();
  const inputs = asList(asObject(editor.draft).inputs);
  const condition = bind(editor, child(props.loc, 'visibleIf'));
  const current = asObject(condition.value);
  const controllers = inputs.slice(0, props.index).flatMap((entry) => {
    const input = asObject(entry);
    return (input.kind === 'select' || input.kind === 'toggle') && typeof input.key === 'string' ? [input] : [];
  });
  const controller = controllers.find((input) => input.key === current.key);
  const firstValue = (input: Record<string, Json>): Json =>
    input.kind === 'toggle' ? true : asObject(asList(input.options)[0]).value;
  const equals = bind(editor, child(child(props.loc, 'visibleIf'), 'equals'));
  return (
    <div class="row">
      <Choice
        bound={{ ...bind(editor, child(child(props.loc, 'visibleIf'), 'key')), path: condition.path }}
        label="Shown"
        none="Always"
        options={controllers.map((input) => [String(input.key), `Only when ${String(input.key)} is…`] as const)}
        onChoose={(key) => {
          const input = controllers.find((candidate) => candidate.key === key);
          condition.set(input ? { key, equals: firstValue(input) } : undefined);
        }}
      />
      <GroupProblems path={child(child(props.loc, 'visibleIf'), 'key').path} />
      {condition.value !== undefined && (
        <Choice
          bound={{ ...equals, value: equals.value === undefined ? undefined : String(equals.value) }}
          label="Value"
          options={
            controller?.kind === 'toggle'
              ? [
                  ['true', 'On'],
                  ['false', 'Off'],
                ]
              : asList(controller?.options).map((option) => {
                  const value = String(asObject(option).value);
                  return [value, value] as const;
                })
          }
          onChoose={(value) => equals.set(controller?.kind === 'toggle' ? value === 'true' : value)}
        />
      )}
    </div>
  );
}

const KINDS = [
  ['number', 'Number'],
  ['select', 'Choice from a list'],
  ['toggle', 'On/off switch'],
] as const;

export function InputsSection() {
  const editor = useEditor();
  const loc = child(ROOT, 'inputs');
  return (
    <ItemList
      loc={loc}
      title="Inputs"
      min={1}
      intro={<p class="hint">What visitors enter. Formulas and pre-fill use each input's key.</p>}
      name={(index, entry) => `Input ${index + 1}${keyOf(entry)}`}
      make={() => ({
        ...inputOfKind('number', {}),
        key: freeKey('input', usedKeys(editor.draft)),
        label: 'New input',
      })}
      addLabel="Add input"
    >
      {(item, entry, index) => {
        const input = asObject(entry);
        return (
          <>
            <div class="row">
              <Choice
                bound={bind(editor, child(item, 'kind'))}
                label="Kind"
                options={KINDS}
                onChoose={(kind) => editor.set(item, inputOfKind(kind, input))}
              />
              <TextInput bound={bind(editor, child(item, 'key'))} label="Key" code />
            </div>
            <div class="row">
              <TextField bound={bind(editor, child(item, 'label'))} label="Label" />
              <TextField bound={bind(editor, child(item, 'help'))} label="Help" optional />
            </div>
            {input.kind === 'number' && <NumberInputFields loc={item} input={input} />}
            {input.kind === 'select' && <SelectInputFields loc={item} input={input} />}
            {input.kind === 'toggle' && <Check bound={bind(editor, child(item, 'default'))} label="On by default" />}
            <VisibleIf loc={item} index={index} />
          </>
        );
      }}
    </ItemList>
  );
}

export function VariablesSection() {
  const editor = useEditor();
  return (
    <ItemList
      loc={child(ROOT, 'variables')}
      title="Variables"
      optional
      intro={
        <p class="hint">
          Named steps of the calculation: each may use the inputs and the variables above it. {LANGUAGE}
        </p>
      }
      name={(index, entry) => `Variable ${index + 1}${keyOf(entry)}`}
      make={() => ({ key: freeKey('step', usedKeys(editor.draft)), formula: '0' })}
      addLabel="Add variable"
    >
      {(item, _entry, index) => (
        <div class="row key-formula">
          <TextInput bound={bind(editor, child(item, 'key'))} label="Key" code />
          <TextInput
            bound={bind(editor, child(item, 'formula'))}
            label="Formula"
            code
            formula
            hint={namesHint(editor.draft, index)}
          />
        </div>
      )}
    </ItemList>
  );
}

/** The formula language in one line (docs/calculators.md has it in full). */
const LANGUAGE = `Formulas use numbers, names, + - * / % ^, comparisons, && || !, c ? a : b, parentheses and ${[
  ...FUNCTIONS.keys(),
].join(', ')}.`;

const STYLES = [
  ['number', 'Number'],
  ['currency', 'Amount of money'],
  ['percent', 'Percentage'],
] as const;

const TONES = [
  ['good', 'Good (green)'],
  ['caution', 'Caution (amber)'],
  ['risk', 'Risk (red)'],
] as const;

function OutputFields(props: { loc: Loc; output: Record<string, Json>; index: number }) {
  const editor = useEditor();
  const { loc, output } = props;
  const format = asObject(output.format);
  const outputs = child(ROOT, 'outputs');
  return (
    <>
      <div class="row">
        <TextInput bound={bind(editor, child(loc, 'key'))} label="Key" code />
        <TextField bound={bind(editor, child(loc, 'label'))} label="Label" />
      </div>
      <TextInput
        bound={bind(editor, child(loc, 'formula'))}
        label="Formula"
        code
        formula
        hint={namesHint(editor.draft, Number.POSITIVE_INFINITY)}
      />
      <div class="row">
        <Choice
          bound={bind(editor, child(child(loc, 'format'), 'style'))}
          label="Shown as"
          none="Number with 2 decimals"
          options={STYLES}
          onChoose={(style) =>
            editor.set(
              child(loc, 'format'),
              style === ''
                ? undefined
                : {
                    style,
                    decimals: format.decimals ?? 2,
                    ...(style === 'number' && format.unit !== undefined ? { unit: format.unit } : {}),
                  },
            )
          }
        />
        {output.format !== undefined && (
          <NumberInput bound={bind(editor, child(child(loc, 'format'), 'decimals'))} label="Decimals" />
        )}
      </div>
      {format.style === 'number' && (
        <PerSystem
          loc={child(child(loc, 'format'), 'unit')}
          render={(bound, suffix) => <TextField bound={bound} label={`Unit${suffix}`} optional />}
        />
      )}
      <Check
        bound={{
          ...bind(editor, child(loc, 'primary')),
          // One primary output at most: choosing one clears the others.
          set: (value) =>
            editor.set(
              outputs,
              asList(asObject(editor.draft).outputs).map((entry, i) => {
                const { primary: _primary, ...rest } = asObject(entry);
                return i === props.index && value === true ? { ...rest, primary: true } : rest;
              }),
            ),
        }}
        label="Main result (shown first and large)"
        optional
      />
      {output.bandsBy !== undefined ? (
        <p class="hint">
          Its bands depend on the option chosen in <code>{String(asObject(output.bandsBy).key)}</code>: change them in
          the JSON (export, edit, import).
        </p>
      ) : (
        <ItemList
          loc={child(loc, 'bands')}
          title="Bands"
          nested
          optional
          intro={
            <p class="hint">
              Labels for ranges of the shown value, in rising order: a band applies up to its value; the last may have
              none.
            </p>
          }
          name={(index) => `Band ${index + 1}`}
          make={() => ({ label: 'New band' })}
          addLabel="Add band"
        >
          {(band) => (
            <div class="row">
              <NumberInput bound={bind(editor, child(band, 'upTo'))} label="Up to" optional />
              <TextField bound={bind(editor, child(band, 'label'))} label="Label" />
              <Choice bound={bind(editor, child(band, 'tone'))} label="Tone" none="Neutral" options={TONES} />
            </div>
          )}
        </ItemList>
      )}
    </>
  );
}

export function OutputsSection() {
  const editor = useEditor();
  return (
    <ItemList
      loc={child(ROOT, 'outputs')}
      title="Outputs"
      min={1}
      intro={<p class="hint">The results visitors see, computed from inputs and variables. {LANGUAGE}</p>}
      name={(index, entry) => `Output ${index + 1}${keyOf(entry)}`}
      make={() => ({ key: freeKey('result', usedKeys(editor.draft)), label: 'New result', formula: '0' })}
      addLabel="Add output"
    >
      {(item, entry, index) => <OutputFields loc={item} output={asObject(entry)} index={index} />}
    </ItemList>
  );
}

/**
 * A table's name, renamed as it is typed while the new name is free; a name another table
 * has, or none, is kept here until it is changed.
 */
function TableName(props: { name: string; index: number; rename: (to: string) => boolean }) {
  const [typed, setTyped] = useState(props.name);
  const [clash, setClash] = useState('');
  useEffect(() => setTyped(props.name), [props.name]);
  const id = `table-name-${props.index}`;
  return (
    <div class="control">
      <label for={id}>Name</label>
      <input
        id={id}
        type="text"
        class="code"
        autocomplete="off"
        spellcheck={false}
        value={typed}
        aria-invalid={clash ? true : undefined}
        aria-describedby={clash ? `${id}-problems` : undefined}
        onInput={(event) => {
          const next = event.currentTarget.value;
          setTyped(next);
          if (next === props.name) setClash('');
          else if (next === '') setClash('is required');
          else setClash(props.rename(next) ? '' : `another table is named \`${next}\``);
        }}
      />
      {clash && (
        <ul id={`${id}-problems`} class="field-problems">
          <li>{clash}</li>
        </ul>
      )}
    </div>
  );
}

export function TablesSection() {
  const editor = useEditor();
  const loc = child(ROOT, 'tables');
  const tables = Object.entries(asObject(asObject(editor.draft).tables));
  editor.register(loc.path);
  const write = (entries: [string, Json][]) =>
    editor.set(loc, entries.length === 0 ? undefined : Object.fromEntries(entries));
  const addId = `${idOf(loc.path)}-add`;
  return (
    <section class="card" aria-labelledby="tables-heading" id={idOf(loc.path)} tabIndex={-1}>
      <h2 id="tables-heading">Tables</h2>
      <p class="hint">
        Step tables for <code>lookup(x, table)</code>: the value of the last row whose threshold is at most x.
      </p>
      <GroupProblems path={loc.path} />
      {tables.length > 0 && (
        <ol class="items" aria-labelledby="tables-heading">
          {tables.map(([name, rows], index) => {
            const table = child(loc, name);
            const label = `Table ${index + 1} (${name})`;
            return (
              <li key={index}>
                <fieldset class="item" id={`table-${index}`} tabIndex={-1}>
                  <legend>{label}</legend>
                  <TableName
                    name={name}
                    index={index}
                    rename={(to) => {
                      if (tables.some(([other]) => other === to)) return false;
                      write(tables.map(([other, value]) => [other === name ? to : other, value]));
                      return true;
                    }}
                  />
                  <ItemList
                    loc={table}
                    title="Rows"
                    nested
                    min={1}
                    name={(row) => `Row ${row + 1}`}
                    make={() => {
                      const last = asList(asList(rows).at(-1));
                      return [typeof last[0] === 'number' ? last[0] + 1 : 0, 0];
                    }}
                    addLabel="Add row"
                  >
                    {(row) => (
                      <div class="row">
                        <NumberInput bound={bind(editor, child(row, 0))} label="Threshold" />
                        <NumberInput bound={bind(editor, child(row, 1))} label="Value" />
                      </div>
                    )}
                  </ItemList>
                  <ItemActions
                    path={`table-${index}`}
                    index={index}
                    count={tables.length}
                    name={label}
                    move={(to) => {
                      const reordered = [...tables];
                      const [entry] = reordered.splice(index, 1);
                      if (entry) reordered.splice(to, 0, entry);
                      write(reordered);
                      editor.focusLater(
                        `f-table-${to}-${to === 0 ? 'down' : to === tables.length - 1 ? 'up' : to < index ? 'up' : 'down'}`,
                      );
                    }}
                    remove={() => {
                      write(tables.filter((_, i) => i !== index));
                      editor.focusLater(tables.length > 1 ? `table-${Math.min(index, tables.length - 2)}` : addId);
                    }}
                  />
                </fieldset>
              </li>
            );
          })}
        </ol>
      )}
      <button
        type="button"
        id={addId}
        onClick={() => {
          write([
            ...tables,
            [
              freeKey('table', usedKeys(editor.draft)),
              [
                [0, 0],
                [100, 1],
              ],
            ],
          ]);
          editor.focusLater(`table-${tables.length}`);
        }}
      >
        Add table
      </button>
    </section>
  );
}
