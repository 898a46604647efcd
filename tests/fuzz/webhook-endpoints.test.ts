import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { webhookEndpoints } from "#db/schema/index.ts";
import { createSession } from "#domain/auth/sessions.ts";
import { WEBHOOK_EVENT_TYPES as EVENT_TYPES } from "#domain/events/event-types.ts";
import { describeEachBackend } from "../setup/database.ts";
import { createTestStaff } from "../setup/staff.ts";
import { type FuzzEndpoint, fuzzApp, fuzzEndpoint, logReport } from "./harness.ts";
import { encodePathSegment, FUZZ_TIMEOUT_MS, hostileBodies, hostileString } from "./hostile.ts";

/**
 * Addresses an admin might type, none of which may be registered (the fuzz app refuses private
 * networks, as production does): loopback, private, link-local, the cloud metadata address, a
 * name that does not resolve, another scheme.
 */
const URLS = [
  "http://127.0.0.1:1/hook",
  "http://[::1]/hook",
  "http://[::ffff:127.0.0.1]/hook",
  "http://10.0.0.1/hook",
  "http://169.254.169.254/latest/meta-data/",
  "http://localhost:9/hook",
  "https://hooks.invalid/hook",
  "file:///etc/passwd",
  "https://",
];

describeEachBackend("fuzzing the webhook calls", (database) => {
  const server = fuzzApp(database, { ADMIN_EMAIL_DOMAIN: "castellum.test" });
  let adminCookie = "";
  const endpointId = randomUUID();

  beforeAll(async () => {
    const deps = database().deps;
    const admin = await createTestStaff(deps, "admin@castellum.test", { isAdmin: true });
    adminCookie = `castellum_session=${(await createSession(deps, { role: "staff", staffUserId: admin.id }, {})).token}`;
    // Paused, so the test events the fuzz queues are never sent anywhere.
    await deps.db.insert(webhookEndpoints).values({
      id: endpointId,
      url: "http://127.0.0.1:1/fuzz",
      events: ["request.created"],
      secret: "whsec_fuzz",
      pausedAt: new Date(),
      createdBy: "staff:admin@castellum.test",
    });
  });

  const asAdmin = () => ({ cookie: adminCookie });
  const url = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...URLS) },
    { weight: 1, arbitrary: hostileString },
  );
  const events = fc.oneof(fc.subarray([...EVENT_TYPES]), fc.array(hostileString, { maxLength: 3 }));
  const pathId = fc.oneof(
    fc.constant(null).map(() => endpointId),
    fc.uuid(),
    hostileString.map((text) => encodePathSegment(text.slice(0, 200))),
  );
  const noBody = fc.option(hostileBodies({ note: "x" }), { nil: undefined });
  const onEndpoint = (
    method: "POST" | "DELETE",
    suffix: string,
  ): FuzzEndpoint & { name: string } => ({
    name: `${method} /api/admin/webhooks/{id}${suffix}`,
    method,
    documented: `/api/admin/webhooks/{id}${suffix}`,
    baseHeaders: asAdmin,
    cases: fc.tuple(pathId, noBody).map(([id, body]) => ({
      path: `/api/admin/webhooks/${id}${suffix}`,
      body,
    })),
  });

  const endpoints: (FuzzEndpoint & { name: string })[] = [
    {
      name: "POST /api/admin/webhooks",
      method: "POST",
      documented: "/api/admin/webhooks",
      baseHeaders: asAdmin,
      cases: fc
        .tuple(url, events, fc.option(fc.boolean(), { nil: undefined }))
        .chain(([value, types, includeContact]) =>
          hostileBodies({ url: value, events: types, includeContact }),
        )
        .map((body) => ({ path: "/api/admin/webhooks", body })),
    },
    onEndpoint("POST", "/pause"),
    onEndpoint("POST", "/rotate-secret"),
    onEndpoint("POST", "/test"),
    onEndpoint("DELETE", ""),
  ];

  for (const endpoint of endpoints)
    it(
      `${endpoint.name}: no 5xx, documented refusals`,
      async () => {
        logReport(endpoint.name, await fuzzEndpoint(server(), endpoint));
      },
      FUZZ_TIMEOUT_MS,
    );

  it("registered no address it must not send to", async () => {
    const stored = await database()
      .deps.db.select({ url: webhookEndpoints.url })
      .from(webhookEndpoints);
    expect(stored.filter((row) => row.url !== "http://127.0.0.1:1/fuzz")).toEqual([]);
  });
});
