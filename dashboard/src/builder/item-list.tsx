/**
 * A list of the draft (inputs, options, bands, a table's rows, …): each entry in its own
 * group with Move up, Move down and Remove, and an Add button. Keyboard use keeps its
 * place: after a move, focus stays on the moved entry's button; after a removal it goes
 * to the next entry, or to Add.
 */
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { asList, child, idOf, type Json, type Loc, moved } from './draft.ts';
import { type Bound, useBound, useEditor } from './editor-context.ts';
import { GroupProblems } from './fields.tsx';

export function ItemActions(props: {
  path: string;
  index: number;
  count: number;
  /** The entry in words, for the buttons' names ("input 2 (weight)"). */
  name: string;
  move: (to: number) => void;
  remove: () => void;
  removable?: boolean;
}) {
  const { index, count, name } = props;
  const id = idOf(props.path);
  return (
    <div class="item-actions">
      <button type="button" id={`${id}-up`} disabled={index === 0} onClick={() => props.move(index - 1)}>
        Move up<span class="visually-hidden"> {name}</span>
      </button>
      <button type="button" id={`${id}-down`} disabled={index === count - 1} onClick={() => props.move(index + 1)}>
        Move down<span class="visually-hidden"> {name}</span>
      </button>
      <button type="button" class="danger" disabled={props.removable === false} onClick={props.remove}>
        Remove<span class="visually-hidden"> {name}</span>
      </button>
    </div>
  );
}

export function ItemList(props: {
  loc: Loc;
  /** The heading: a section's h2, or a nested list's legend. */
  title: string;
  nested?: boolean;
  /** One entry's name in words, from its index and value: "Input 2 (weight)". */
  name: (index: number, entry: Json) => string;
  /** The entry added by Add. */
  make: () => Json;
  addLabel: string;
  /** Leave the list out of the draft when its last entry goes. */
  optional?: boolean;
  /** The list must keep at least one entry. */
  min?: number;
  intro?: ComponentChildren;
  children: (loc: Loc, entry: Json, index: number) => ComponentChildren;
}) {
  const editor = useEditor();
  const bound: Bound = useBound(props.loc);
  const list = asList(bound.value);
  const headingId = useId();
  const addId = `${idOf(props.loc.path)}-add`;
  editor.register(props.loc.path);
  const write = (next: Json[]) => bound.set(next.length === 0 && props.optional ? undefined : next);
  const move = (from: number, to: number) => {
    write(moved(list, from, to));
    const id = idOf(child(props.loc, to).path);
    editor.focusLater(
      to === 0 ? `${id}-down` : to === list.length - 1 ? `${id}-up` : to < from ? `${id}-up` : `${id}-down`,
    );
  };
  const remove = (index: number) => {
    write(list.filter((_, i) => i !== index));
    const next = index < list.length - 1 ? index : index - 1;
    editor.focusLater(next >= 0 && list.length > 1 ? idOf(child(props.loc, next).path) : addId);
  };
  const Heading = props.nested ? 'legend' : 'h2';
  const body = (
    <>
      <Heading id={headingId}>{props.title}</Heading>
      {props.intro}
      <GroupProblems path={props.loc.path} />
      {list.length > 0 && (
        <ol class="items" aria-labelledby={headingId}>
          {list.map((entry, index) => {
            const loc = child(props.loc, index);
            const name = props.name(index, entry);
            return (
              // Index keys: controls show the draft's values, so a moved entry's fields follow it.
              <li key={index}>
                <fieldset id={idOf(loc.path)} tabIndex={-1} class="item">
                  <legend>{name}</legend>
                  {props.children(loc, entry, index)}
                  <GroupProblems path={loc.path} />
                  <ItemActions
                    path={loc.path}
                    index={index}
                    count={list.length}
                    name={name}
                    move={(to) => move(index, to)}
                    remove={() => remove(index)}
                    removable={list.length > (props.min ?? 0)}
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
          write([...list, props.make()]);
          editor.focusLater(idOf(child(props.loc, list.length).path));
        }}
      >
        {props.addLabel}
      </button>
    </>
  );
  return props.nested ? (
    <fieldset id={idOf(props.loc.path)} tabIndex={-1} class="sublist">
      {body}
    </fieldset>
  ) : (
    <section id={idOf(props.loc.path)} tabIndex={-1} class="card" aria-labelledby={headingId}>
      {body}
    </section>
  );
}
