import { describe, expect, it } from "vitest";
import { guestRequests } from "#db/schema/index.ts";
import { LANGUAGES } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { ValidationError } from "../errors.ts";
import { REQUEST_KINDS, REQUEST_STATUSES, STATUS_KEYS, statusesOf } from "../requests/options.ts";
import { assertStatusOfKind } from "./inbox.ts";

describe("request statuses", () => {
  it("are the same list in the database schema and the domain", () => {
    // db/ cannot import domain/, so the schema spells the list out again.
    expect(guestRequests.status.enumValues).toEqual([...REQUEST_STATUSES]);
  });

  it("filter each kind by its own statuses and refuse another kind's", () => {
    for (const kind of REQUEST_KINDS)
      for (const status of REQUEST_STATUSES) {
        const own = statusesOf(kind).includes(status);
        const check = () => assertStatusOfKind(kind, status);
        if (own) expect(check, `${kind} ${status}`).not.toThrow();
        else expect(check, `${kind} ${status}`).toThrow(ValidationError);
      }
    // Each kind refuses something: the sets differ.
    for (const kind of REQUEST_KINDS)
      expect(REQUEST_STATUSES.filter((s) => !statusesOf(kind).includes(s))).not.toEqual([]);
  });

  it("have a label of their own in every language", () => {
    for (const language of LANGUAGES) {
      const labels = REQUEST_STATUSES.map((status) =>
        translate(language, `staff.statuses.${STATUS_KEYS[status]}`),
      );
      for (const [i, label] of labels.entries())
        expect(label, `${language} ${REQUEST_STATUSES[i]}`).not.toMatch(/^staff\.statuses\./);
      expect(new Set(labels).size, language).toBe(labels.length);
    }
  });
});
