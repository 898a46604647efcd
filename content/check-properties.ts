/** Checks every file under content/properties against the schema: `npx node content/check-properties.ts`. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PropertyContentSchema } from "./property-content.schema.ts";

const dir = join(import.meta.dirname, "properties");
let failures = 0;
const ids = new Set<number>();
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort()) {
  const parsed = PropertyContentSchema.safeParse(JSON.parse(readFileSync(join(dir, file), "utf8")));
  if (!parsed.success) {
    failures++;
    console.log(
      `${file}:\n${parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n")}`,
    );
    continue;
  }
  if (ids.has(parsed.data.id)) {
    failures++;
    console.log(`${file}: duplicate id ${parsed.data.id}`);
  }
  ids.add(parsed.data.id);
}
console.log(failures ? `${failures} file(s) failed` : `${ids.size} properties OK`);
process.exitCode = failures ? 1 : 0;
