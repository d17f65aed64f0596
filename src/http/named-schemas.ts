import { isDeepStrictEqual } from 'node:util';
import { CatalogueCalculator } from '../calculators/schema.ts';
import { DocumentedDefinition } from '../definition/example.ts';
import { Problem } from '../definition/schema.ts';

/**
 * The schemas /openapi.json names under `components/schemas`: shapes that several routes
 * carry (the definition alone in 19 places), written once and referenced with `$ref`, so
 * a generated client has one named type for each instead of an anonymous copy per route.
 * A schema belongs here when routes share it; nothing else has to change for it.
 */
export const NAMED_SCHEMAS: Record<string, unknown> = {
  Definition: DocumentedDefinition,
  CatalogueCalculator,
  Problem,
};

/** What a route may say its own way about a named schema and still carry that schema. */
const ANNOTATIONS = ['title', 'description', 'examples'];

/** Keywords whose values are data, not schemas: never replaced, even when they look like one. */
const VALUES = new Set(['example', 'examples', 'const', 'default', 'enum', 'x-codeSamples']);

type Node = Record<string, unknown>;

const withoutAnnotations = (node: Node): Node =>
  Object.fromEntries(Object.entries(node).filter(([key]) => !ANNOTATIONS.includes(key)));

/**
 * `doc` with every subschema that is a named schema (up to its annotations) replaced by a
 * `$ref` to it, and the named schemas under `components/schemas` (themselves referring to
 * the others). A site's own annotations stay beside its `$ref` where they differ. `named`
 * holds the schemas as the document writes them (after `forClients`).
 */
export function withNamedSchemas<T extends { components: { schemas: Node } }>(doc: T, named: Record<string, Node>): T {
  const shapes = Object.entries(named).map(([name, schema]) => ({ name, schema, shape: withoutAnnotations(schema) }));
  const refer = (node: unknown, root = false): unknown => {
    if (Array.isArray(node)) return node.map((child) => refer(child));
    if (typeof node !== 'object' || node === null) return node;
    const object = node as Node;
    const match = root ? undefined : shapes.find(({ shape }) => isDeepStrictEqual(withoutAnnotations(object), shape));
    if (match) {
      const own = ANNOTATIONS.filter(
        (key) => object[key] !== undefined && !isDeepStrictEqual(object[key], match.schema[key]),
      );
      return {
        $ref: `#/components/schemas/${match.name}`,
        ...Object.fromEntries(own.map((key) => [key, object[key]])),
      };
    }
    return Object.fromEntries(
      Object.entries(object).map(([key, child]) => [key, VALUES.has(key) ? child : refer(child)]),
    );
  };
  const schemas = Object.fromEntries(
    Object.entries({ ...doc.components.schemas, ...named }).map(([name, schema]) => [name, refer(schema, true)]),
  );
  const referred = refer({ ...doc, components: { ...doc.components, schemas: {} } }) as T;
  return { ...referred, components: { ...referred.components, schemas } };
}
