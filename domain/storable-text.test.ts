import { describe, expect, it } from "vitest";
import { CatalogueFilterSchema } from "./catalogue/catalogue-filter.schema.ts";
import { EstateSearchSchema } from "./staff/estates.schema.ts";
import { InboxFilterSchema } from "./staff/inbox.schema.ts";
import { isStorableText, toStorableText, UNSTORABLE_TEXT } from "./storable-text.ts";

const UNSTORABLE = ["a\u0000b", "\u0000", "x\uD800", "\uDFFFy"];

describe("text a database can hold", () => {
  it("is any text without a NUL or an unpaired surrogate", () => {
    for (const text of UNSTORABLE) expect(isStorableText(text), JSON.stringify(text)).toBe(false);
    for (const text of ["", "城堡", "👩‍👩‍👧‍👦", "e\u0301", "\uFFFD"])
      expect(isStorableText(text), text).toBe(true);
    expect(UNSTORABLE.map(toStorableText)).toEqual(["ab", "", "x\uFFFD", "\uFFFDy"]);
  });

  it("is what every schema that reads a search from the URL accepts", () => {
    const schemas = { CatalogueFilterSchema, InboxFilterSchema, EstateSearchSchema };
    for (const [name, schema] of Object.entries(schemas))
      for (const q of UNSTORABLE) {
        const parsed = schema.safeParse({ q });
        expect(parsed.success, `${name} ${JSON.stringify(q)}`).toBe(false);
        expect(parsed.error?.issues.map((issue) => issue.message)).toEqual([UNSTORABLE_TEXT]);
      }
    expect(InboxFilterSchema.safeParse({ after: "1\u0000" }).success).toBe(false);
  });
});
