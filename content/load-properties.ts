import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type PropertyContent, PropertyContentSchema } from "./property-content.schema.ts";

/**
 * Reads and validates the demo catalogue (one JSON file per property), sorted by id.
 * A file that breaks the schema stops the load with its name and the failing paths.
 */
export function loadPropertyContent(dir: string): PropertyContent[] {
  const files = readdirSync(dir).filter((file) => file.endsWith(".json"));
  return files
    .map((file) => {
      const parsed = PropertyContentSchema.safeParse(
        JSON.parse(readFileSync(join(dir, file), "utf8")),
      );
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
        throw new Error(`Invalid property content in ${file}: ${issues.join("; ")}`);
      }
      return parsed.data;
    })
    .sort((a, b) => a.id - b.id);
}
