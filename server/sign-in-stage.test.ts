import { and, eq, sql } from "drizzle-orm";
import { expect, it } from "vitest";
import routes from "#app/routes.ts";
import { propertyClaims, securityEvents } from "#db/schema/index.ts";
import { createSession, type SessionStage } from "#domain/auth/sessions.ts";
import type { Operation } from "#domain/api/operation.ts";
import { translate } from "#i18n/translate.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { servePages } from "#tests/setup/pages.ts";
import { routePaths } from "#tests/setup/route-paths.ts";
import { createTestStaff } from "#tests/setup/staff.ts";
import { API_OPERATIONS } from "./api/operations.ts";
import { SIGN_IN_STEP_OPERATIONS, SIGN_IN_STEP_PAGES } from "./middleware/sign-in-stage.ts";

/** The estate the owner calls and the dashboard name, claimed by an owner so it has data. */
const ESTATE = { id: 1, owner: "office@estate-one.example" };
const INCOMPLETE = ["second_factor", "enrolment"] as const;
const SIGN_IN_INCOMPLETE = translate("en", "staff.errors.signInIncomplete");

/** A call's address: each `{param}` filled with a sample, owner calls naming the estate. */
function addressOf(operation: Operation): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === "token" ? "a".repeat(43) : "1",
  );
  return operation.path.startsWith("/api/property-owners")
    ? `${path}?propertyId=${ESTATE.id}`
    : path;
}

/** Whether a call needs a staff or owner session, from its documented security. */
const needsSession = (operation: Operation) =>
  operation.security.length > 0 &&
  operation.security.every((requirement) => Object.keys(requirement).length > 0) &&
  operation.security.some((r) => "staffSession" in r || "ownerSession" in r);

const needsStaff = (operation: Operation) =>
  needsSession(operation) && operation.security.some((r) => "staffSession" in r);

/**
 * A password alone (a sign-in at `second_factor` or `enrolment`) opens nothing that needs a
 * session: every documented call and every staff or owner page is walked at every stage.
 */
describeEachBackend("a sign-in short of its second factor", (database) => {
  const site = servePages(() => database().deps);

  const cookieAt = async (staffUserId: string, stage: SessionStage) => {
    const { token } = await createSession(
      database().deps,
      { role: "staff", staffUserId },
      {},
      undefined,
      stage,
    );
    return `castellum_session=${token}`;
  };

  const call = async (operation: Operation, cookie?: string) => {
    const response = await fetch(`${site.url()}${addressOf(operation)}`, {
      method: operation.method.toUpperCase(),
      redirect: "manual",
      headers: {
        Origin: "http://localhost",
        ...(cookie ? { Cookie: cookie } : {}),
        ...(operation.method === "get" ? {} : { "Content-Type": "application/json" }),
      },
      body: operation.method === "get" ? undefined : "{}",
    });
    const text = await response.text();
    return { status: response.status, text };
  };

  it("refuses every call that needs a session, logs it, and treats public calls as for nobody", async () => {
    const { db } = database().deps;
    const admin = await createTestStaff(database().deps, "stages@castellum.test", {
      isAdmin: true,
    });
    await db.insert(propertyClaims).values({ propertyId: ESTATE.id, email: ESTATE.owner });

    const guarded: string[] = [];
    for (const operation of API_OPERATIONS) {
      if (SIGN_IN_STEP_OPERATIONS.has(operation.id)) continue;
      const label = `${operation.method.toUpperCase()} ${operation.path}`;
      if (needsSession(operation)) {
        expect(operation.responses[401], `${label} documents its 401`).toBeDefined();
        guarded.push(label);
      }
      const anonymous = needsSession(operation) ? null : await call(operation);
      for (const stage of INCOMPLETE) {
        const answer = await call(operation, await cookieAt(admin.id, stage));
        if (anonymous) expect(answer.status, `${label} at ${stage}`).toBe(anonymous.status);
        else {
          expect(answer.status, `${label} at ${stage}`).toBe(401);
          expect(JSON.parse(answer.text), `${label} at ${stage}`).toEqual({
            message: SIGN_IN_INCOMPLETE,
            code: "sign_in_incomplete",
          });
        }
      }
      // The same account, complete, is let through to the call itself.
      if (needsStaff(operation)) {
        const answer = await call(operation, await cookieAt(admin.id, "complete"));
        expect(answer.status, `${label} complete`).not.toBe(401);
      }
    }
    expect(guarded.length).toBeGreaterThan(50);

    const logged = await db
      .select({ data: securityEvents.data, staffUserId: securityEvents.staffUserId })
      .from(securityEvents)
      .where(
        and(
          eq(securityEvents.type, "access.refused"),
          sql`${securityEvents.data} ->> 'stage' is not null`,
        ),
      );
    expect(logged).toHaveLength(guarded.length * INCOMPLETE.length);
    const loggedCalls = new Set(
      logged.map(({ data }) => `${String(data.method)} ${String(data.path)}`),
    );
    expect([...loggedCalls].sort()).toEqual([...new Set(guarded)].sort());
    expect(new Set(logged.map(({ staffUserId }) => staffUserId))).toEqual(new Set([admin.id]));
  });

  it("opens no staff or owner page, which send it back to sign-in, and logs each", async () => {
    const { db } = database().deps;
    const admin = await createTestStaff(database().deps, "pages.stages@castellum.test", {
      isAdmin: true,
    });
    const pages = [...new Set(routePaths(routes))]
      .filter((route) => route === "admin" || route.startsWith("admin/"))
      .map((route) => `/${route.replace(/:collection/, "booking").replace(/:\w+/g, "1")}`);
    pages.push(`/admin/dashboard?estate=${ESTATE.id}`);
    expect(pages).toEqual(expect.arrayContaining(["/admin/booking-requests", "/admin/security"]));
    const open = async (path: string, cookie?: string) => {
      const response = await fetch(`${site.url()}${path}`, {
        redirect: "manual",
        headers: cookie ? { Cookie: cookie } : {},
      });
      return {
        status: response.status,
        location: response.headers.get("location"),
        text: await response.text(),
      };
    };
    const eventsBefore = await stageEvents();
    let guardedVisits = 0;
    for (const path of pages) {
      const bare = path.split("?")[0]!;
      if (SIGN_IN_STEP_PAGES.has(bare)) continue;
      const anonymous = await open(path);
      for (const stage of INCOMPLETE) {
        const answer = await open(path, await cookieAt(admin.id, stage));
        expect({ status: answer.status, location: answer.location }, `${path} at ${stage}`).toEqual(
          { status: anonymous.status, location: anonymous.location },
        );
      }
      if (!/^\/admin\/(setup|forgot-password|password-reset|invitation)\b/.test(bare))
        guardedVisits += INCOMPLETE.length;
    }
    // A complete session of the same account opens the staff area.
    expect(
      (await open("/admin/booking-requests", await cookieAt(admin.id, "complete"))).status,
    ).toBe(200);
    expect((await stageEvents()) - eventsBefore).toBe(guardedVisits);

    // The sign-in's own pages carry it on: the code at `second_factor`, enrolment at `enrolment`.
    const login = await open("/admin/login", await cookieAt(admin.id, "second_factor"));
    expect(login.status).toBe(200);
    expect(login.text).toContain(translate("en", "staff.mfa.secondStep.title"));
    expect((await open("/admin/login", await cookieAt(admin.id, "enrolment"))).location).toBe(
      "/admin/enrol",
    );
    expect((await open("/admin/enrol", await cookieAt(admin.id, "enrolment"))).status).toBe(200);
    expect((await open("/admin/enrol", await cookieAt(admin.id, "second_factor"))).location).toBe(
      "/admin/login",
    );

    async function stageEvents() {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(securityEvents)
        .where(
          and(
            eq(securityEvents.type, "access.refused"),
            eq(securityEvents.staffUserId, admin.id),
            sql`${securityEvents.data} ->> 'stage' is not null`,
          ),
        );
      return row!.n;
    }
  });
});
