import { readFileSync } from "node:fs";
import { is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { expect, it } from "vitest";
import * as schema from "#db/schema/index.ts";

/**
 * docs/privacy.md is the record of processing: every place personal data lives. A column whose
 * name says it may hold a person's details must be in it, as `table.column`, either with its
 * purpose, legal basis, retention and readers, or in its list of columns that only look
 * personal (an estate's name, a template's text). A new column of that kind fails here until
 * the map says what it is.
 */
const LOOKS_PERSONAL = /(^|_)(name|email|phone|address|note|body|text|recipient|ip|contact)(_|$)/;

const MAP = readFileSync(new URL("../docs/privacy.md", import.meta.url), "utf8");

function columnsOfSchema(): { table: string; column: string }[] {
  return (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .flatMap((table) => {
      const config = getTableConfig(table);
      return config.columns.map((column) => ({ table: config.name, column: column.name }));
    });
}

it("lists in docs/privacy.md every column that looks personal", () => {
  const columns = columnsOfSchema();
  expect(columns.length).toBeGreaterThan(100);
  const unlisted = columns
    .filter(({ column }) => LOOKS_PERSONAL.test(column))
    .map(({ table, column }) => `${table}.${column}`)
    .filter((name) => !MAP.includes(`\`${name}\``));
  expect(unlisted).toEqual([]);
});

it("names only columns that exist", () => {
  const known = new Set(columnsOfSchema().map(({ table, column }) => `${table}.${column}`));
  const tables = new Set(columnsOfSchema().map(({ table }) => table));
  const named = [...MAP.matchAll(/`([a-z_]+)\.([a-z_]+)`/g)]
    .filter(([, table]) => tables.has(table!))
    .map(([, table, column]) => `${table}.${column}`);
  expect(named.length).toBeGreaterThan(0);
  expect(named.filter((name) => !known.has(name))).toEqual([]);
});
