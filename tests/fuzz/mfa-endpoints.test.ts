import { it } from "vitest";
import { createSession } from "#domain/auth/sessions.ts";
import { describeEachBackend } from "../setup/database.ts";
import { createTestStaff } from "../setup/staff.ts";
import { type FuzzEndpoint, fuzzApp, fuzzEndpoint, logReport } from "./harness.ts";
import { FUZZ_TIMEOUT_MS, hostileBodies } from "./hostile.ts";

/**
 * The second factor's calls a stranger with a right password can reach: the
 * sign-in's second step and the confirmation of a first authenticator app. No 5xx, only
 * documented refusals, whatever the body.
 */
describeEachBackend("fuzzing the second-factor endpoints", (database) => {
  const server = fuzzApp(database, {
    ADMIN_EMAIL_DOMAIN: "castellum.test",
    STAFF_MFA_REQUIRED: true,
  });
  const cookies = { second_factor: "", enrolment: "" };

  it("starts sessions at both stages", async () => {
    const deps = database().deps;
    const user = await createTestStaff(deps, "fuzz.mfa@castellum.test", { isAdmin: true });
    for (const stage of ["second_factor", "enrolment"] as const) {
      const { token } = await createSession(
        deps,
        { role: "staff", staffUserId: user.id },
        {},
        undefined,
        stage,
      );
      cookies[stage] = `castellum_session=${token}`;
    }
  });

  const endpoints: (FuzzEndpoint & { name: string })[] = [
    {
      name: "POST /api/admin/login/mfa",
      method: "POST",
      documented: "/api/admin/login/mfa",
      baseHeaders: () => ({ cookie: cookies.second_factor }),
      cases: hostileBodies({ code: "123456" }).map((body) => ({
        path: "/api/admin/login/mfa",
        body,
      })),
    },
    {
      name: "POST /api/admin/mfa/totp/confirm",
      method: "POST",
      documented: "/api/admin/mfa/totp/confirm",
      baseHeaders: () => ({ cookie: cookies.enrolment }),
      cases: hostileBodies({ code: "123456" }).map((body) => ({
        path: "/api/admin/mfa/totp/confirm",
        body,
      })),
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
});
