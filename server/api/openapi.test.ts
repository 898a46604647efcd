import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi.ts";
import { STAFF_COLLECTIONS } from "#domain/staff/collections.ts";

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
// @redocly/cli ships as one bundle without a programmatic API (@redocly/openapi-core is not
// installed on its own), so the test runs the CLI with the Node that runs Vitest.
const REDOCLY_CLI = fileURLToPath(
  new URL("../../node_modules/@redocly/cli/bin/cli.js", import.meta.url),
);

type LintReport = {
  totals: { errors: number; warnings: number };
  problems: {
    ruleId: string;
    severity: string;
    message: string;
    location: { pointer: string }[];
  }[];
};

/** Runs `redocly lint` with the recommended rules on the document and returns its JSON report. */
async function lint(document: unknown): Promise<LintReport> {
  const dir = await mkdtemp(join(tmpdir(), "castellum-openapi-"));
  try {
    const file = join(dir, "openapi.json");
    await writeFile(file, JSON.stringify(document));
    const args = [REDOCLY_CLI, "lint", "--extends", "recommended", "--format", "json", file];
    const env = {
      ...process.env,
      REDOCLY_TELEMETRY: "off",
      REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
    };
    // The CLI exits with 1 when it finds errors, with the report on stdout; without a report,
    // the CLI itself failed.
    const stdout = await promisify(execFile)(process.execPath, args, { env }).then(
      (result) => result.stdout,
      (error: Error & { stdout?: string }) => {
        if (!error.stdout) throw error;
        return error.stdout;
      },
    );
    return JSON.parse(stdout) as LintReport;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

type DocumentedOperation = {
  operationId?: string;
  tags?: string[];
  security?: Record<string, unknown>[];
  responses?: Record<string, { content?: { "application/json"?: { schema?: { $ref?: string } } } }>;
};

function operationsOf(document: ReturnType<typeof buildOpenApiDocument>) {
  const paths = document.paths as Record<string, Record<string, unknown>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({
      path,
      method,
      where: `${method.toUpperCase()} ${path}`,
      ...(item[method] as DocumentedOperation),
    })),
  );
}

const asksForStaffSession = (operation: DocumentedOperation) =>
  operation.security?.some((requirement) => "staffSession" in requirement) ?? false;

describe("the OpenAPI document", () => {
  const document = buildOpenApiDocument("https://castellum.example");

  it("passes redocly lint with the recommended rules, without errors or warnings", async () => {
    const report = await lint(document);
    const problems = report.problems.map(
      (problem) =>
        `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
    );
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it("documents what the server accepts: comma lists, dates, the bot token's header, an optional cookie", () => {
    const castles = document.paths?.["/api/castles"]?.get?.parameters as
      | { name: string; style?: string; explode?: boolean; schema?: { format?: string } }[]
      | undefined;
    const param = (name: string) => castles?.find((entry) => entry.name === name);
    for (const name of ["amenities", "fields"])
      expect(param(name), name).toMatchObject({ style: "form", explode: false });
    for (const name of ["checkIn", "checkOut"])
      expect(param(name)?.schema?.format, name).toBe("date");
    const schemas = document.components?.schemas as Record<string, { required?: string[] }>;
    expect((schemas.IsoDate as { format?: string }).format).toBe("date");
    for (const form of ["BookingRequest", "PropertyBooking", "MembershipApplication"]) {
      expect(schemas[form]?.required, form).toContain("email");
      expect(schemas[form]?.required, form).not.toContain("turnstileToken");
    }
    const logout = document.paths?.["/api/property-owners/logout"]?.post?.responses?.["200"] as {
      headers?: Record<string, { required?: boolean }>;
    };
    expect(logout.headers?.["Set-Cookie"]?.required).not.toBe(true);
  });

  it("names every operation with a unique operationId", () => {
    const operations = operationsOf(document);
    expect(operations.filter((operation) => !operation.operationId).map((o) => o.where)).toEqual(
      [],
    );
    const ids = operations.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("declares security on every operation, and only the guest-facing ones are public", () => {
    const operations = operationsOf(document);
    expect(operations.filter((operation) => !operation.security).map((o) => o.where)).toEqual([]);
    const publicIds = operations
      .filter((operation) => operation.security?.length === 0)
      .map((operation) => operation.operationId)
      .sort();
    expect(publicIds).toEqual([
      "acceptOffer",
      "acceptStaffInvitation",
      "cancelAsGuest",
      "checkoutOffer",
      "completeStaffPasswordReset",
      "completeStaffSetup",
      "createBookingRequest",
      "createMembershipApplication",
      "createPropertyBooking",
      "declineOffer",
      "getBotCheckChallenge",
      "getCalendarExport",
      "getCastle",
      "getCastleAvailability",
      "getCastleQuote",
      "getGuestRequest",
      "getPaymentReceipt",
      "getStaffInvitation",
      "listCastles",
      "loginStaff",
      "replyToRequest",
      "requestStaffPasswordReset",
      "signInOwnerWithPasskey",
      "startOwnerPasskeySignIn",
      "stripeWebhook",
      "submitCaslPayment",
      "verifyOwnerCode",
      "verifyOwnerEmail",
    ]);
  });

  it("asks for the owner's session or a staff admin's on every estate call, and for the proof cookie to claim", () => {
    const operations = operationsOf(document);
    const ownerCalls = operations.filter(({ path }) => path.startsWith("/api/property-owners/"));
    const byId = Object.fromEntries(
      ownerCalls.map((operation) => [operation.operationId ?? operation.where, operation]),
    );
    expect(Object.keys(byId).sort()).toEqual([
      "addOwnerBlock",
      "addOwnerCalendarFeed",
      "addOwnerPasskey",
      "claimProperty",
      "deleteOwnerImage",
      "getOwnerCalendar",
      "getOwnerProperty",
      "getOwnerRates",
      "getOwnerStatement",
      "giveOwnerRequestView",
      "listOwnerCalendarFeeds",
      "listOwnerPasskeys",
      "listOwnerRequests",
      "ownerLogout",
      "putOwnerRates",
      "removeOwnerBlock",
      "removeOwnerCalendarFeed",
      "removeOwnerPasskey",
      "rotateOwnerIcalUrl",
      "signInOwnerWithPasskey",
      "startOwnerPasskeyRegistration",
      "startOwnerPasskeySignIn",
      "syncOwnerCalendarFeed",
      "updateOwnerCalendarFeed",
      "updateOwnerImages",
      "updateOwnerProperty",
      "uploadOwnerImages",
      "verifyOwnerCode",
      "verifyOwnerEmail",
    ]);
    expect(byId.claimProperty?.security).toEqual([{ ownerProof: [] }]);
    expect(byId.ownerLogout?.security).toEqual([{ ownerSession: [] }, {}]);
    // The owner's passkeys belong to the person, not to an estate.
    const estateCalls = ownerCalls.filter(
      ({ operationId }) =>
        !["verifyOwnerEmail", "verifyOwnerCode", "claimProperty", "ownerLogout"].includes(
          operationId!,
        ) && !operationId!.includes("Passkey"),
    );
    expect(
      estateCalls
        .filter(
          (operation) =>
            JSON.stringify(operation.security) !==
            JSON.stringify([{ ownerSession: [] }, { staffSession: [] }]),
        )
        .map((o) => o.where),
    ).toEqual([]);
    // estateAccess answers 404 for an estate it cannot settle (staff without `propertyId`).
    expect(
      estateCalls.filter((operation) => !operation.responses?.["404"]).map((o) => o.where),
    ).toEqual([]);
    const schemes = document.components!.securitySchemes as Record<string, { name?: string }>;
    expect(schemes.ownerSession).toMatchObject({ in: "cookie", name: schemes.staffSession!.name });
    expect(schemes.ownerProof).toMatchObject({ in: "cookie", name: "castellum_owner_proof" });
  });

  it("asks for a staff session on every staff call: /api/admin/ but sign-in and setup, and the collections", () => {
    const collections = Object.values(STAFF_COLLECTIONS).map((path) => `/api${path}`);
    const staffCalls = operationsOf(document).filter(({ path, method }) =>
      path.startsWith("/api/admin/")
        ? path !== "/api/admin/login" &&
          path !== "/api/admin/setup" &&
          // A mailed link's holder and a forgotten password have no session.
          !path.startsWith("/api/admin/invitations/") &&
          !path.startsWith("/api/admin/password-reset")
        : collections.some(
            (collection) =>
              // The guest's form posts to the collection itself: that one call is public.
              (path === collection && method !== "post") || path.startsWith(`${collection}/`),
          ),
    );
    expect(staffCalls.map((operation) => operation.where)).toEqual(
      expect.arrayContaining([
        "POST /api/admin/logout",
        "GET /api/admin/me",
        "GET /api/admin/overview",
        "GET /api/admin/mail",
        "POST /api/admin/mail/{id}/retry",
        "DELETE /api/admin/mail/{id}",
        "GET /api/admin/estates",
        "GET /api/admin/estates/{id}",
        "PATCH /api/admin/estates/{id}/owner-email",
        "POST /api/admin/estates/{id}/revisions/{revisionId}/revert",
        "GET /api/admin/estates/{id}/calendar",
        "POST /api/admin/estates/{id}/blocks",
        "DELETE /api/admin/estates/{id}/blocks/{blockId}",
        "GET /api/admin/estates/{id}/calendar-feeds",
        "POST /api/admin/estates/{id}/calendar-feeds",
        "DELETE /api/admin/estates/{id}/calendar-feeds/{feedId}",
        "POST /api/admin/estates/{id}/calendar-feeds/{feedId}/sync",
        "POST /api/admin/estates/{id}/ical-url",
        "POST /api/admin/webhooks",
        "GET /api/admin/webhooks",
        "POST /api/admin/webhooks/{id}/pause",
        "POST /api/admin/webhooks/{id}/resume",
        "POST /api/admin/webhooks/{id}/rotate-secret",
        "POST /api/admin/webhooks/{id}/test",
        "DELETE /api/admin/webhooks/{id}",
        "GET /api/admin/webhooks/{id}/deliveries",
        "GET /api/admin/accounts",
        "POST /api/admin/accounts/invitations",
        "PUT /api/admin/accounts/{id}/disabled",
        "PUT /api/admin/accounts/{id}/admin",
        "DELETE /api/admin/accounts/{id}/sessions",
        "POST /api/admin/accounts/{id}/password-reset",
        "GET /api/admin/account/sessions",
        "DELETE /api/admin/account/sessions/{id}",
        "PUT /api/admin/account/password",
        ...collections.flatMap((collection) => [
          `GET ${collection}`,
          `GET ${collection}/export.csv`,
          `GET ${collection}/{id}`,
          `PATCH ${collection}/{id}`,
          `POST ${collection}/{id}/notes`,
          `GET ${collection}/{id}/messages`,
          `POST ${collection}/{id}/messages`,
        ]),
      ]),
    );
    expect(
      staffCalls.filter((operation) => !asksForStaffSession(operation)).map((o) => o.where),
    ).toEqual([]);
  });

  it("keeps the staff operations' ids, from which clients generate their names", () => {
    const staffIds = operationsOf(document)
      .filter(({ tags }) => tags?.some((tag) => ["staff", "inbox", "estates"].includes(tag)))
      .map((operation) => operation.operationId)
      .sort();
    const collections = ["BookingRequest", "PropertyBooking", "MembershipApplication"];
    expect(staffIds).toEqual(
      [
        "loginStaff",
        "logoutStaff",
        "getSignedInStaffUser",
        "completeStaffSetup",
        "rememberStaffLanguage",
        // The second factor
        "startTotpEnrolment",
        "confirmTotpEnrolment",
        "completeSecondFactor",
        "removeTotp",
        "regenerateRecoveryCodes",
        "getSecondFactors",
        "listStaffAccounts",
        "inviteStaffAccount",
        "setStaffAccountDisabled",
        "setStaffAccountAdmin",
        "endStaffAccountSessions",
        "sendStaffPasswordReset",
        "getStaffInvitation",
        "acceptStaffInvitation",
        "listOwnStaffSessions",
        "endOwnStaffSession",
        "changeOwnStaffPassword",
        "requestStaffPasswordReset",
        "completeStaffPasswordReset",
        "getInboxOverview",
        "listUndeliveredMail",
        "retryUndeliveredMail",
        "discardUndeliveredMail",
        "listStaffEstates",
        "getStaffEstate",
        "setEstateOwnerEmail",
        "setEstateResponseHours",
        "setEstateCommission",
        "revertEstateRevision",
        "listSecurityEvents",
        "exportSecurityEventsCsv",
        ...collections.flatMap((one) => [
          `list${one}s`,
          `export${one}sCsv`,
          `get${one}`,
          `update${one}Status`,
          `add${one}Note`,
          `list${one}Messages`,
          `send${one}Message`,
          `set${one}Due`,
        ]),
        "setBookingRequestStay",
        "setPropertyBookingStay",
        "startStaffPasskeyRegistration",
        "addStaffPasskey",
        "listStaffPasskeys",
        "removeStaffPasskey",
        "startStaffPasskeySignIn",
        "signInStaffWithPasskey",
      ].sort(),
    );
  });

  it("keeps the calendar operations' ids", () => {
    expect(
      operationsOf(document)
        .filter(({ tags }) => tags?.includes("calendar"))
        .map((operation) => operation.operationId)
        .sort(),
    ).toEqual(
      expect.arrayContaining([
        "getCalendarExport",
        "listEstateCalendarFeeds",
        "addEstateCalendarFeed",
        "removeEstateCalendarFeed",
        "syncEstateCalendarFeed",
        "rotateEstateIcalUrl",
        "listOwnerCalendarFeeds",
        "addOwnerCalendarFeed",
        "removeOwnerCalendarFeed",
        "syncOwnerCalendarFeed",
        "rotateOwnerIcalUrl",
        "getEstateCalendar",
        "addEstateBlock",
        "removeEstateBlock",
        "getOwnerCalendar",
        "addOwnerBlock",
        "removeOwnerBlock",
      ]),
    );
  });

  it("keeps the webhook operations' ids", () => {
    expect(
      operationsOf(document)
        .filter(({ tags }) => tags?.includes("webhooks"))
        .map((operation) => operation.operationId)
        .sort(),
    ).toEqual(
      [
        "registerWebhook",
        "listWebhooks",
        "pauseWebhook",
        "resumeWebhook",
        "rotateWebhookSecret",
        "sendTestWebhook",
        "deleteWebhook",
        "listWebhookDeliveries",
      ].sort(),
    );
  });

  it("documents the guards' {message} answers: 401 where a session is required, 403 on every call that changes state", () => {
    const operations = operationsOf(document);
    const errorSchemaOf = (operation: DocumentedOperation, status: string) =>
      operation.responses?.[status]?.content?.["application/json"]?.schema;
    // Sign-out also answers without a session (its security has the anonymous `{}` alternative).
    const sessionRequired = operations.filter(
      (operation) =>
        asksForStaffSession(operation) &&
        !operation.security?.some((requirement) => Object.keys(requirement).length === 0),
    );
    expect(sessionRequired.map((o) => o.where)).toEqual(
      expect.arrayContaining(["GET /api/admin/me", "GET /api/admin/estates"]),
    );
    expect(sessionRequired.map((o) => o.where)).not.toContain("POST /api/admin/logout");
    const signedOut = (operation: DocumentedOperation) => {
      const schema = operation.responses?.["401"]?.content?.["application/json"]?.schema as
        { required?: string[]; properties?: { code?: { enum?: string[] } } } | undefined;
      return (
        schema?.required?.includes("message") &&
        schema.properties?.code?.enum?.includes("not_signed_in")
      );
    };
    expect(
      sessionRequired.filter((operation) => !signedOut(operation)).map((o) => o.where),
    ).toEqual([]);
    // sameOriginOnly guards every state-changing call, public or not; the guest forms' 403 also
    // covers the bot check, with its own shape.
    expect(
      operations
        .filter((operation) => operation.method !== "get" && !errorSchemaOf(operation, "403"))
        .map((o) => o.where),
    ).toEqual([]);
  });
});
