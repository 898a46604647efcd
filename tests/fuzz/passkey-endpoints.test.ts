import fc from "fast-check";
import { expect, it } from "vitest";
import { passkeys } from "#db/schema/index.ts";
import { describeEachBackend } from "../setup/database.ts";
import { SoftAuthenticator } from "../setup/webauthn.ts";
import { type FuzzEndpoint, fuzzApp, fuzzEndpoint, logReport } from "./harness.ts";
import { FUZZ_TIMEOUT_MS, hostileBodies } from "./hostile.ts";

/**
 * The passkey calls a stranger can reach: the sign-in options and assertions of
 * staff and owners. Every answer is a documented one, nothing is a 5xx, and no hostile body
 * signs anyone in or stores a passkey.
 */
describeEachBackend(
  "fuzzing the passkey sign-in calls",
  (database) => {
    const server = fuzzApp(database, { ADMIN_EMAIL_DOMAIN: "castellum.test" });
    // A well-formed assertion to mutate: signed, but for a challenge the server never issued.
    const key = new SoftAuthenticator({ id: "localhost", origin: "http://localhost" });
    key.register({ challenge: "AAAA", user: { id: "dXNlcg" } });
    const assertion = { response: key.authenticate({ challenge: "AAAA" }) };
    const noBody = fc.option(hostileBodies({ note: "x" }), { nil: undefined });

    const endpoints: (FuzzEndpoint & { name: string })[] = [
      ...(["/api/admin/passkeys", "/api/property-owners/passkeys"] as const).flatMap((base) => [
        {
          name: `POST ${base}/authentication/options`,
          method: "POST" as const,
          documented: `${base}/authentication/options`,
          cases: noBody.map((body) => ({ path: `${base}/authentication/options`, body })),
        },
        {
          name: `POST ${base}/authentication`,
          method: "POST" as const,
          documented: `${base}/authentication`,
          cases: hostileBodies(assertion).map((body) => ({ path: `${base}/authentication`, body })),
        },
      ]),
    ];

    for (const endpoint of endpoints)
      it(
        `${endpoint.name}: no 5xx, documented refusals`,
        async () => {
          logReport(endpoint.name, await fuzzEndpoint(server(), endpoint));
        },
        FUZZ_TIMEOUT_MS,
      );

    it("stored no passkey", async () => {
      expect(await database().deps.db.select().from(passkeys)).toEqual([]);
    });
  },
  { seed: false },
);
