import { getTableColumns, type Table } from 'drizzle-orm';

/**
 * The hot statements are plain SQL (drizzle's row mapping costs more than their query),
 * yet their column lists come from the table's drizzle schema, in either dialect: a new
 * column is one schema edit, not a hunt through SQL strings. Built once, when a store is made.
 */

/** Every column as `"sql_name" AS "key"`: the row shape drizzle's own selects answer. */
export function selectList(table: Table): string {
  return Object.entries(getTableColumns(table))
    .map(([key, column]) => `"${column.name}" AS "${key}"`)
    .join(', ');
}

/** The column names and the matching `$key` parameters of an INSERT of a whole row (bun:sqlite). */
export function insertList(table: Table): { columns: string; values: string } {
  const entries = Object.entries(getTableColumns(table));
  return {
    columns: entries.map(([, column]) => `"${column.name}"`).join(', '),
    values: entries.map(([key]) => `$${key}`).join(', '),
  };
}
