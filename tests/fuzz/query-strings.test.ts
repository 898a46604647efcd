import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { createSession } from "#domain/auth/sessions.ts";
import { slugify } from "#domain/catalogue/slug.ts";
import { describeEachBackend, DEMO_CATALOGUE } from "../setup/database.ts";
import { createTestStaff } from "../setup/staff.ts";
import { documentedGet, documentedGets, fuzzApp, fuzzQuery, logReport } from "./harness.ts";
import { encodePathSegment, FUZZ_RUNS, FUZZ_TIMEOUT_MS, hostileString } from "./hostile.ts";

/** A path parameter: a value that exists, one that may not, or hostile text. */
const PATH_VALUES: Record<string, string[]> = {
  idOrSlug: DEMO_CATALOGUE.slice(0, 2).flatMap((estate) => [
    slugify(estate.content.en.name),
    String(estate.id),
  ]),
  id: ["1", "00000000-0000-4000-8000-000000000000", String(DEMO_CATALOGUE[0]!.id)],
};

function pathsOf(documented: string): fc.Arbitrary<string> {
  const names = [...documented.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  if (!names.length) return fc.constant(documented);
  const values = names.map((name) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...(PATH_VALUES[name] ?? ["1"])) },
      { weight: 1, arbitrary: hostileString.map((text) => encodePathSegment(text.slice(0, 100))) },
    ),
  );
  return fc
    .tuple(...values)
    .map((filled) =>
      names.reduce((path, name, i) => path.replace(`{${name}}`, filled[i]!), documented),
    );
}

/**
 * Generated requests for one GET: the full count for a call that reads six inputs or more
 * (query and path parameters), a sixth of it for each fewer. A call that reads nothing from the
 * query meets only unknown and malformed keys, which the shared middleware answers the same for
 * every call; sending it as many requests as the inbox list's nine filters buys nothing.
 */
function runsFor(documented: string, runs: number): number {
  const operation = documentedGet(documented);
  const inputs = (operation.parameters ?? []).filter((p) => p.in === "query" || p.in === "path");
  return Math.ceil((runs * Math.min(6, inputs.length + 1)) / 6);
}

describeEachBackend("fuzzing the query string of every GET", (database) => {
  const server = fuzzApp(database, { ADMIN_EMAIL_DOMAIN: "castellum.test" });
  let adminCookie = "";
  beforeAll(async () => {
    const deps = database().deps;
    const admin = await createTestStaff(deps, "admin@castellum.test", { isAdmin: true });
    const { token } = await createSession(deps, { role: "staff", staffUserId: admin.id }, {});
    adminCookie = `castellum_session=${token}`;
  });

  it("covers every documented GET", () => {
    expect(documentedGets()).toContain("/api/castles");
    expect(documentedGets()).toContain("/api/booking-requests/export.csv");
    // The public availability call: its window, dates and language fuzzed too.
    expect(documentedGets()).toContain("/api/castles/{idOrSlug}/availability");
  });

  for (const documented of documentedGets())
    it(
      `GET ${documented}: no 5xx, documented refusals, whatever the query string`,
      async () => {
        // Signed in as an admin, so the staff and owner calls reach their parameters.
        const target = server();
        const runs = runsFor(documented, target.runs ?? FUZZ_RUNS);
        const report = await fuzzQuery(
          { ...target, runs },
          {
            documented,
            paths: pathsOf(documented),
            headers: () => ({ cookie: adminCookie }),
          },
        );
        logReport(`GET ${documented}`, report);
      },
      FUZZ_TIMEOUT_MS,
    );
});
