import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { staffUsers } from "#db/schema/index.ts";
import { describeEachBackend } from "../setup/database.ts";
import { createTestStaff } from "../setup/staff.ts";
import { type FuzzEndpoint, fuzzApp, fuzzEndpoint, logReport } from "./harness.ts";
import { encodePathSegment, FUZZ_TIMEOUT_MS, hostileBodies, hostileString } from "./hostile.ts";

/**
 * The accounts calls a stranger can reach: the forgotten-password request, and
 * using an invitation or a reset link. Hostile bodies and tokens get documented refusals only,
 * and no account appears or changes.
 */
describeEachBackend("fuzzing the accounts calls a stranger can reach", (database) => {
  const server = fuzzApp(database, { ADMIN_EMAIL_DOMAIN: "castellum.test" });

  beforeAll(async () => {
    await createTestStaff(database().deps, "known@castellum.test", { isAdmin: true });
  });

  const token = fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    hostileString.map((text) => encodePathSegment(text.slice(0, 200))),
  );
  const password = fc.oneof(fc.constant("orchard-bell-meadow-77"), hostileString);

  const endpoints: (FuzzEndpoint & { name: string })[] = [
    {
      name: "POST /api/admin/password-reset",
      method: "POST",
      documented: "/api/admin/password-reset",
      cases: fc
        .oneof(fc.constant("known@castellum.test"), hostileString)
        .chain((email) => hostileBodies({ email }))
        .map((body) => ({ path: "/api/admin/password-reset", body })),
    },
    {
      name: "POST /api/admin/password-reset/{token}",
      method: "POST",
      documented: "/api/admin/password-reset/{token}",
      cases: fc
        .tuple(
          token,
          password.chain((value) => hostileBodies({ password: value })),
        )
        .map(([value, body]) => ({ path: `/api/admin/password-reset/${value}`, body })),
    },
    {
      name: "POST /api/admin/invitations/{token}",
      method: "POST",
      documented: "/api/admin/invitations/{token}",
      cases: fc
        .tuple(
          token,
          password.chain((value) => hostileBodies({ displayName: "Ada", password: value })),
        )
        .map(([value, body]) => ({ path: `/api/admin/invitations/${value}`, body })),
    },
  ];

  for (const endpoint of endpoints)
    it(
      `${endpoint.name}: no 5xx, documented refusals`,
      async () => {
        logReport(endpoint.name, await fuzzEndpoint(server(), endpoint));
      },
      FUZZ_TIMEOUT_MS,
    );

  it("made no account", async () => {
    const accounts = await database().deps.db.select({ email: staffUsers.email }).from(staffUsers);
    expect(accounts).toEqual([{ email: "known@castellum.test" }]);
  });
});
