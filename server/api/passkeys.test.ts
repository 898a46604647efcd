import { and, eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { authSessions, passkeys, securityEvents } from "#db/schema/index.ts";
import * as api from "#domain/auth/passkeys.contract.ts";
import { hasPasskey, removeStaffPasskeys } from "#domain/auth/passkeys.ts";
import { countUnusedRecoveryCodes } from "#domain/staff/mfa/recovery-codes.ts";
import { createSession, hashSessionToken, type SessionStage } from "#domain/auth/sessions.ts";
import { setStaffDisabled } from "#domain/staff/accounts.ts";
import { getSignedInStaffUser } from "#domain/staff/staff-auth.contract.ts";
import type { StaffUser } from "#domain/staff/staff-user.ts";
import { dataOf } from "#tests/setup/api.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { serveIntake } from "#tests/setup/intake.ts";
import {
  createTestStaff,
  sessionCookieOf,
  signIn,
  STAFF_PASSWORD,
  staffCall,
} from "#tests/setup/staff.ts";
import { SoftAuthenticator, type WebAuthnOptionsJson } from "#tests/setup/webauthn.ts";

const RP = { id: "localhost", origin: "http://localhost" };
const OWNER_EMAIL = "owner.passkey@example.com";

describeEachBackend("passkeys", (database) => {
  const server = serveIntake(() => database().deps);
  const url = () => server().url;
  let admin: StaffUser;
  let other: StaffUser;
  let adminCookie: string;
  const key = new SoftAuthenticator(RP);

  const sessionCookie = async (staff: StaffUser, stage: SessionStage) => {
    const { token } = await createSession(
      database().deps,
      { role: "staff", staffUserId: staff.id },
      {},
      undefined,
      stage,
    );
    return `castellum_session=${token}`;
  };
  const ownerCookie = async (email = OWNER_EMAIL) => {
    const { token } = await createSession(
      database().deps,
      { role: "owner", ownerEmail: email },
      {},
    );
    return `castellum_session=${token}`;
  };
  const events = (type: string) =>
    database().deps.db.select().from(securityEvents).where(eq(securityEvents.type, type));

  /** Adds a passkey the way the account page does: password, options, the key, the label. */
  async function addStaffKey(cookie: string, authenticator: SoftAuthenticator, name: string) {
    const options = dataOf(
      api.startStaffPasskeyRegistration,
      await staffCall(url(), "POST", "/api/admin/passkeys/registration/options", {
        cookie,
        body: { password: STAFF_PASSWORD },
      }),
      200,
    ) as WebAuthnOptionsJson;
    return staffCall(url(), "POST", "/api/admin/passkeys/registration", {
      cookie,
      body: { response: authenticator.register(options), name },
    });
  }

  async function staffOptions(cookie?: string) {
    return dataOf(
      api.startStaffPasskeySignIn,
      await staffCall(url(), "POST", "/api/admin/passkeys/authentication/options", { cookie }),
      200,
    ) as WebAuthnOptionsJson;
  }

  const signInWith = (response: unknown, cookie?: string) =>
    staffCall(url(), "POST", "/api/admin/passkeys/authentication", {
      cookie,
      body: { response },
    });

  beforeAll(async () => {
    admin = await createTestStaff(database().deps, "keys.admin@castellum.test", { isAdmin: true });
    other = await createTestStaff(database().deps, "keys.other@castellum.test", { isAdmin: true });
    adminCookie = await signIn(url(), admin.email);
  });

  it("adds a passkey after the password is given again, lists it and logs it", async () => {
    const wrong = await staffCall(url(), "POST", "/api/admin/passkeys/registration/options", {
      cookie: adminCookie,
      body: { password: "not-my-password-at-all" },
    });
    dataOf(api.startStaffPasskeyRegistration, wrong, 401);
    expect(await hasPasskey(database().deps, admin.id)).toBe(false);

    const saved = await addStaffKey(adminCookie, key, "Work laptop");
    expect(dataOf(api.addStaffPasskey, saved, 201).passkey.name).toBe("Work laptop");
    const list = dataOf(
      api.listStaffPasskeys,
      await staffCall(url(), "GET", "/api/admin/passkeys", { cookie: adminCookie }),
      200,
    );
    expect(list.passkeys.map((entry) => [entry.id, entry.name, entry.lastUsedAt])).toEqual([
      [key.credentials[0]!.id, "Work laptop", null],
    ]);
    expect(await hasPasskey(database().deps, admin.id)).toBe(true);
    expect(await hasPasskey(database().deps, other.id)).toBe(false);
    const added = await events("factor.added");
    expect(added.map((event) => [event.staffUserId, event.data])).toContainEqual([
      admin.id,
      { method: "passkey", name: "Work laptop" },
    ]);
  });

  it("signs in with the passkey alone: a new complete session, logged", async () => {
    const answer = await signInWith(key.authenticate(await staffOptions()));
    dataOf(api.signInStaffWithPasskey, answer, 200);
    const cookie = sessionCookieOf(new Response(null, { headers: answer.headers }));
    const me = await staffCall(url(), "GET", "/api/admin/me", { cookie });
    expect(dataOf(getSignedInStaffUser, me, 200).user.email).toBe(admin.email);
    const succeeded = await events("sign_in.succeeded");
    expect(succeeded.map((event) => [event.staffUserId, event.data])).toContainEqual([
      admin.id,
      { method: "passkey", name: "Work laptop" },
    ]);
    const list = dataOf(
      api.listStaffPasskeys,
      await staffCall(url(), "GET", "/api/admin/passkeys", { cookie }),
      200,
    );
    expect(list.passkeys[0]!.lastUsedAt).not.toBeNull();
  });

  it("refuses a challenge used twice, even with a fresh signature", async () => {
    const options = await staffOptions();
    dataOf(api.signInStaffWithPasskey, await signInWith(key.authenticate(options)), 200);
    const again = await signInWith(key.authenticate(options));
    dataOf(api.signInStaffWithPasskey, again, 401);
    expect(again.body).toEqual({
      message: "The passkey was not accepted.",
      code: "passkey_refused",
    });
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  it("refuses an assertion made on another origin and logs the failure", async () => {
    const before = (await events("sign_in.failed")).length;
    const phished = await signInWith(
      key.authenticate(await staffOptions(), { origin: "https://castellum.example.net" }),
    );
    dataOf(api.signInStaffWithPasskey, phished, 401);
    const failed = await events("sign_in.failed");
    expect(failed).toHaveLength(before + 1);
    expect(failed.at(-1)!.data).toEqual({ reason: "passkey" });
  });

  it("refuses a counter that goes backwards (a cloned key), then takes the real one", async () => {
    const [stored] = await database()
      .deps.db.select({ counter: passkeys.counter })
      .from(passkeys)
      .where(eq(passkeys.id, key.credentials[0]!.id));
    expect(stored!.counter).toBeGreaterThan(1);
    for (const counter of [stored!.counter - 1, stored!.counter])
      dataOf(
        api.signInStaffWithPasskey,
        await signInWith(key.authenticate(await staffOptions(), { counter })),
        401,
      );
    dataOf(
      api.signInStaffWithPasskey,
      await signInWith(key.authenticate(await staffOptions(), { counter: stored!.counter + 1 })),
      200,
    );
  });

  it("refuses an assertion without user verification", async () => {
    dataOf(
      api.signInStaffWithPasskey,
      await signInWith(key.authenticate(await staffOptions(), { userVerified: false })),
      401,
    );
  });

  it("completes a sign-in waiting for its second factor, with this account's passkey only", async () => {
    const waiting = await sessionCookie(admin, "second_factor");
    dataOf(
      getSignedInStaffUser,
      await staffCall(url(), "GET", "/api/admin/me", { cookie: waiting }),
      401,
    );
    const options = await staffOptions(waiting);
    expect(options.allowCredentials?.map((entry) => entry.id)).toEqual([key.credentials[0]!.id]);

    // Another account's passkey does not complete this sign-in.
    const otherKey = new SoftAuthenticator(RP);
    dataOf(
      api.addStaffPasskey,
      await addStaffKey(await signIn(url(), other.email), otherKey, "Phone"),
      201,
    );
    dataOf(
      api.signInStaffWithPasskey,
      await signInWith(otherKey.authenticate(options), waiting),
      401,
    );

    const step = await signInWith(key.authenticate(await staffOptions(waiting)), waiting);
    dataOf(api.signInStaffWithPasskey, step, 200);
    // The same session, complete, under a new token: the one seen before the key opens nothing.
    const complete = sessionCookieOf(new Response(null, { headers: step.headers }));
    expect(complete).not.toBe(waiting);
    const me = await staffCall(url(), "GET", "/api/admin/me", { cookie: complete });
    expect(dataOf(getSignedInStaffUser, me, 200).user.id).toBe(admin.id);
    dataOf(
      getSignedInStaffUser,
      await staffCall(url(), "GET", "/api/admin/me", { cookie: waiting }),
      401,
    );
    const used = await events("second_factor.used");
    expect(used.map((event) => [event.staffUserId, event.data])).toContainEqual([
      admin.id,
      { method: "passkey", name: "Work laptop" },
    ]);
  });

  it("completes an enrolment session when its first passkey is saved, and closes the others", async () => {
    const newcomer = await createTestStaff(database().deps, "keys.newcomer@castellum.test", {
      isAdmin: true,
    });
    const enrolling = await sessionCookie(newcomer, "enrolment");
    // A second sign-in left at enrolment, in another browser (or a thief's).
    const stale = await sessionCookie(newcomer, "enrolment");
    // The enrolment page shows the panel: its list answers at this stage.
    const before = await staffCall(url(), "GET", "/api/admin/passkeys", { cookie: enrolling });
    expect(dataOf(api.listStaffPasskeys, before, 200).passkeys).toEqual([]);
    dataOf(
      getSignedInStaffUser,
      await staffCall(url(), "GET", "/api/admin/me", { cookie: enrolling }),
      401,
    );
    const added = await addStaffKey(enrolling, new SoftAuthenticator(RP), "Key");
    dataOf(api.addStaffPasskey, added, 201);
    const complete = sessionCookieOf(new Response(null, { headers: added.headers }));
    dataOf(
      getSignedInStaffUser,
      await staffCall(url(), "GET", "/api/admin/me", { cookie: complete }),
      200,
    );
    // The account has a factor now: the other sign-in may not add one on the password alone,
    // and can only go on by giving the new key.
    const refused = await staffCall(url(), "POST", "/api/admin/passkeys/registration/options", {
      cookie: stale,
      body: { password: STAFF_PASSWORD },
    });
    dataOf(api.startStaffPasskeyRegistration, refused, 401);
    const [row] = await database()
      .deps.db.select({ stage: authSessions.stage })
      .from(authSessions)
      .where(eq(authSessions.tokenHash, hashSessionToken(stale.split("=")[1]!)));
    expect(row?.stage).toBe("second_factor");
  });

  it("refuses a registration without user verification or with a spent challenge", async () => {
    const options = dataOf(
      api.startStaffPasskeyRegistration,
      await staffCall(url(), "POST", "/api/admin/passkeys/registration/options", {
        cookie: adminCookie,
        body: { password: STAFF_PASSWORD },
      }),
      200,
    ) as WebAuthnOptionsJson;
    const spare = new SoftAuthenticator(RP);
    const unverified = await staffCall(url(), "POST", "/api/admin/passkeys/registration", {
      cookie: adminCookie,
      body: { response: spare.register(options, { userVerified: false }), name: "No PIN" },
    });
    dataOf(api.addStaffPasskey, unverified, 400);
    // That try spent the challenge: a proper response to it is refused too.
    const late = await staffCall(url(), "POST", "/api/admin/passkeys/registration", {
      cookie: adminCookie,
      body: { response: spare.register(options), name: "Late" },
    });
    dataOf(api.addStaffPasskey, late, 400);
    const list = dataOf(
      api.listStaffPasskeys,
      await staffCall(url(), "GET", "/api/admin/passkeys", { cookie: adminCookie }),
      200,
    );
    expect(list.passkeys.map((entry) => entry.name)).toEqual(["Work laptop"]);
  });

  it("refuses the passkey of a disabled account", async () => {
    const user = await createTestStaff(database().deps, "keys.leaver@castellum.test", {
      isAdmin: true,
    });
    const leaverKey = new SoftAuthenticator(RP);
    dataOf(
      api.addStaffPasskey,
      await addStaffKey(await signIn(url(), user.email), leaverKey, "Key"),
      201,
    );
    await setStaffDisabled(database().deps, user.email, true);
    dataOf(
      api.signInStaffWithPasskey,
      await signInWith(leaverKey.authenticate(await staffOptions())),
      401,
    );
  });

  it("removes every passkey of an account for a reset of its factors", async () => {
    const user = await createTestStaff(database().deps, "keys.lost@castellum.test", {
      isAdmin: true,
    });
    const lostKey = new SoftAuthenticator(RP);
    const cookie = await signIn(url(), user.email);
    dataOf(api.addStaffPasskey, await addStaffKey(cookie, lostKey, "Lost"), 201);
    expect(await removeStaffPasskeys(database().deps, user.id)).toBe(1);
    expect(await hasPasskey(database().deps, user.id)).toBe(false);
    expect(await hasPasskey(database().deps, admin.id)).toBe(true);
    dataOf(
      api.signInStaffWithPasskey,
      await signInWith(lostKey.authenticate(await staffOptions())),
      401,
    );
  });

  it("removes a passkey only with the password, and logs it", async () => {
    const spare = new SoftAuthenticator(RP);
    const saved = dataOf(api.addStaffPasskey, await addStaffKey(adminCookie, spare, "Spare"), 201);
    const path = `/api/admin/passkeys/${saved.passkey.id}`;
    const wrong = await staffCall(url(), "DELETE", path, {
      cookie: adminCookie,
      body: { password: "not-my-password-at-all" },
    });
    dataOf(api.removeStaffPasskey, wrong, 401);
    const missing = await staffCall(url(), "DELETE", path, { cookie: adminCookie, body: {} });
    dataOf(api.removeStaffPasskey, missing, 400);
    const names = async () =>
      dataOf(
        api.listStaffPasskeys,
        await staffCall(url(), "GET", "/api/admin/passkeys", { cookie: adminCookie }),
        200,
      ).passkeys.map((entry) => entry.name);
    expect(await names()).toEqual(["Work laptop", "Spare"]);
    const right = await staffCall(url(), "DELETE", path, {
      cookie: adminCookie,
      body: { password: STAFF_PASSWORD },
    });
    dataOf(api.removeStaffPasskey, right, 200);
    expect(await names()).toEqual(["Work laptop"]);
    const removed = await events("factor.removed");
    expect(removed.map((event) => [event.staffUserId, event.data])).toContainEqual([
      admin.id,
      { method: "passkey", name: "Spare" },
    ]);
    // The removed passkey signs nobody in.
    dataOf(
      api.signInStaffWithPasskey,
      await signInWith(spare.authenticate(await staffOptions())),
      401,
    );
    dataOf(
      api.removeStaffPasskey,
      await staffCall(url(), "DELETE", `/api/admin/passkeys/${encodeURIComponent("nope")}`, {
        cookie: adminCookie,
        body: { password: STAFF_PASSWORD },
      }),
      404,
    );
  });

  it("lets an owner add a passkey and sign in with it; a staff passkey is no owner's", async () => {
    const cookie = await ownerCookie();
    const ownerKey = new SoftAuthenticator(RP);
    const options = dataOf(
      api.startOwnerPasskeyRegistration,
      await staffCall(url(), "POST", "/api/property-owners/passkeys/registration/options", {
        cookie,
      }),
      200,
    ) as WebAuthnOptionsJson;
    const saved = await staffCall(url(), "POST", "/api/property-owners/passkeys/registration", {
      cookie,
      body: { response: ownerKey.register(options), name: "Tablet" },
    });
    dataOf(api.addOwnerPasskey, saved, 201);
    const list = dataOf(
      api.listOwnerPasskeys,
      await staffCall(url(), "GET", "/api/property-owners/passkeys", { cookie }),
      200,
    );
    expect(list.passkeys.map((entry) => entry.name)).toEqual(["Tablet"]);

    const ownerOptions = async () =>
      dataOf(
        api.startOwnerPasskeySignIn,
        await staffCall(url(), "POST", "/api/property-owners/passkeys/authentication/options"),
        200,
      ) as WebAuthnOptionsJson;
    const answer = await staffCall(url(), "POST", "/api/property-owners/passkeys/authentication", {
      body: { response: ownerKey.authenticate(await ownerOptions()) },
    });
    dataOf(api.signInOwnerWithPasskey, answer, 200);
    const signedIn = sessionCookieOf(new Response(null, { headers: answer.headers }));
    dataOf(
      api.listOwnerPasskeys,
      await staffCall(url(), "GET", "/api/property-owners/passkeys", { cookie: signedIn }),
      200,
    );
    const [event] = await database()
      .deps.db.select()
      .from(securityEvents)
      .where(
        and(eq(securityEvents.type, "owner.signed_in"), eq(securityEvents.actorEmail, OWNER_EMAIL)),
      );
    expect(event?.data).toEqual({ method: "passkey", name: "Tablet" });

    // A staff passkey answering an owner challenge, or an owner's a staff one, opens nothing.
    dataOf(
      api.signInOwnerWithPasskey,
      await staffCall(url(), "POST", "/api/property-owners/passkeys/authentication", {
        body: { response: key.authenticate(await ownerOptions()) },
      }),
      401,
    );
    dataOf(
      api.signInStaffWithPasskey,
      await signInWith(ownerKey.authenticate(await staffOptions())),
      401,
    );
    // A staff challenge is no owner challenge either.
    dataOf(
      api.signInOwnerWithPasskey,
      await staffCall(url(), "POST", "/api/property-owners/passkeys/authentication", {
        body: { response: ownerKey.authenticate(await staffOptions()) },
      }),
      401,
    );

    const removed = await staffCall(
      url(),
      "DELETE",
      `/api/property-owners/passkeys/${list.passkeys[0]!.id}`,
      { cookie },
    );
    dataOf(api.removeOwnerPasskey, removed, 200);
  });

  it("answers every call as its contract says, for each kind of caller", async () => {
    const stray = new SoftAuthenticator(RP);
    const nonAdmin = await createTestStaff(database().deps, "keys.clerk@castellum.test");
    const callers = {
      nobody: undefined,
      owner: await ownerCookie("someone.else@example.com"),
      clerk: await signIn(url(), nonAdmin.email),
      waiting: await sessionCookie(admin, "second_factor"),
      admin: adminCookie,
    };
    const expected: [string, string, unknown, Record<keyof typeof callers, number>][] = [
      [
        "POST",
        "/api/admin/passkeys/registration/options",
        { password: "x" },
        { nobody: 401, owner: 401, clerk: 403, waiting: 401, admin: 401 },
      ],
      [
        "POST",
        "/api/admin/passkeys/registration",
        { response: stray.register({ challenge: "AA" }), name: "x" },
        { nobody: 401, owner: 401, clerk: 403, waiting: 401, admin: 400 },
      ],
      [
        "GET",
        "/api/admin/passkeys",
        undefined,
        { nobody: 401, owner: 401, clerk: 403, waiting: 401, admin: 200 },
      ],
      [
        "DELETE",
        "/api/admin/passkeys/unknown",
        { password: STAFF_PASSWORD },
        { nobody: 401, owner: 401, clerk: 403, waiting: 401, admin: 404 },
      ],
      [
        "POST",
        "/api/admin/passkeys/authentication/options",
        undefined,
        { nobody: 200, owner: 200, clerk: 200, waiting: 200, admin: 200 },
      ],
      [
        "POST",
        "/api/admin/passkeys/authentication",
        { response: { id: "x" } },
        { nobody: 400, owner: 400, clerk: 400, waiting: 400, admin: 400 },
      ],
      [
        "POST",
        "/api/property-owners/passkeys/registration/options",
        undefined,
        { nobody: 401, owner: 200, clerk: 401, waiting: 401, admin: 401 },
      ],
      [
        "POST",
        "/api/property-owners/passkeys/registration",
        { response: stray.register({ challenge: "AA" }), name: "x" },
        { nobody: 401, owner: 400, clerk: 401, waiting: 401, admin: 401 },
      ],
      [
        "GET",
        "/api/property-owners/passkeys",
        undefined,
        { nobody: 401, owner: 200, clerk: 401, waiting: 401, admin: 401 },
      ],
      [
        "DELETE",
        "/api/property-owners/passkeys/unknown",
        undefined,
        { nobody: 401, owner: 404, clerk: 401, waiting: 401, admin: 401 },
      ],
      [
        "POST",
        "/api/property-owners/passkeys/authentication/options",
        undefined,
        { nobody: 200, owner: 200, clerk: 200, waiting: 200, admin: 200 },
      ],
      [
        "POST",
        "/api/property-owners/passkeys/authentication",
        { response: { id: "x" } },
        { nobody: 400, owner: 400, clerk: 400, waiting: 400, admin: 400 },
      ],
    ];
    const operations = [...api.STAFF_PASSKEY_OPERATIONS, ...api.OWNER_PASSKEY_OPERATIONS];
    const seen: string[] = [];
    for (const [method, path, body, statuses] of expected) {
      const operation = operations.find(
        (op) =>
          op.method === method.toLowerCase() &&
          new RegExp(`^${op.path.replace(/\{\w+\}/g, "[^/]+")}$`).test(path),
      )!;
      seen.push(operation.id);
      for (const [caller, cookie] of Object.entries(callers)) {
        const answer = await staffCall(url(), method, path, { cookie, body });
        const status = statuses[caller as keyof typeof callers];
        // Every answer is one the contract documents, with its documented body.
        dataOf(operation, answer, status as never);
      }
      // A browser on another origin is refused before anything else, for every changing call.
      if (method !== "GET") {
        const cross = await staffCall(url(), method, path, {
          cookie: adminCookie,
          body,
          headers: { Origin: "https://evil.example" },
        });
        expect(cross.status, `${method} ${path}`).toBe(403);
      }
    }
    expect(seen.sort()).toEqual(operations.map((op) => op.id).sort());
  });
});

describeEachBackend("passkeys while a second factor is required", (database) => {
  const server = serveIntake(
    () => database().deps,
    () => ({ STAFF_MFA_REQUIRED: true }),
  );
  const url = () => server().url;

  /** A session of an admin who has signed in with the password alone: enrolment only. */
  const enrolmentCookie = async (email: string) => {
    const admin = await createTestStaff(database().deps, email, { isAdmin: true });
    const { token } = await createSession(
      database().deps,
      { role: "staff", staffUserId: admin.id },
      {},
      undefined,
      "enrolment",
    );
    return { admin, cookie: `castellum_session=${token}` };
  };
  const addKey = async (cookie: string, authenticator: SoftAuthenticator, name: string) => {
    const options = dataOf(
      api.startStaffPasskeyRegistration,
      await staffCall(url(), "POST", "/api/admin/passkeys/registration/options", {
        cookie,
        body: { password: STAFF_PASSWORD },
      }),
      200,
    ) as WebAuthnOptionsJson;
    const answer = await staffCall(url(), "POST", "/api/admin/passkeys/registration", {
      cookie,
      body: { response: authenticator.register(options), name },
    });
    // A first factor completes an enrolment session, which gets a new token with it.
    const renewed = answer.headers.getSetCookie().length
      ? sessionCookieOf(new Response(null, { headers: answer.headers }))
      : cookie;
    return { ...dataOf(api.addStaffPasskey, answer, 201), cookie: renewed };
  };
  const removeKey = (cookie: string, id: string) =>
    staffCall(url(), "DELETE", `/api/admin/passkeys/${id}`, {
      cookie,
      body: { password: STAFF_PASSWORD },
    });

  it("enrols with a first passkey, and keeps the last one until another factor exists", async () => {
    // The password alone opens enrolment only; a first passkey completes the session.
    const enrolling = await enrolmentCookie("last.key@castellum.test");
    const { admin } = enrolling;
    let cookie = enrolling.cookie;
    const add = (authenticator: SoftAuthenticator, name: string) =>
      addKey(cookie, authenticator, name);
    const remove = (id: string) => removeKey(cookie, id);
    const {
      passkey: first,
      recoveryCodes,
      cookie: renewed,
    } = await add(new SoftAuthenticator(RP), "Phone");
    expect(renewed, "the session gets a new token as it completes").not.toBe(cookie);
    expect((await staffCall(url(), "GET", "/api/booking-requests", { cookie })).status).toBe(401);
    cookie = renewed;
    expect(
      (await staffCall(url(), "GET", "/api/booking-requests", { cookie })).status,
      "the first passkey completes the enrolment session",
    ).toBe(200);
    // It comes with its recovery codes, shown once: ten distinct ones, all kept unused.
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await countUnusedRecoveryCodes(database().deps, admin.id)).toBe(10);

    const refused = await remove(first.id);
    expect(dataOf(api.removeStaffPasskey, refused, 409)).toMatchObject({
      message: "A second factor is required: the last one cannot be removed.",
    });
    expect(await hasPasskey(database().deps, admin.id)).toBe(true);

    const { passkey: second, recoveryCodes: again } = await add(
      new SoftAuthenticator(RP),
      "Laptop",
    );
    expect(again, "a later passkey leaves the codes as they are").toBeUndefined();
    dataOf(api.removeStaffPasskey, await remove(first.id), 200);
    dataOf(api.removeStaffPasskey, await remove(second.id), 409);
  });

  it("keeps one of two passkeys removed at the same moment: removals take turns", async () => {
    const { admin, cookie: enrolling } = await enrolmentCookie("two.keys@castellum.test");
    const first = await addKey(enrolling, new SoftAuthenticator(RP), "Key 0");
    const cookie = first.cookie;
    let kept = first.passkey;
    for (let round = 1; round <= 3; round++) {
      const other = (await addKey(cookie, new SoftAuthenticator(RP), `Key ${round}`)).passkey;
      const answers = await Promise.all([removeKey(cookie, kept.id), removeKey(cookie, other.id)]);
      // Each removal alone sees another key left; only one at a time may act on that.
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      const left = await database()
        .deps.db.select({ id: passkeys.id })
        .from(passkeys)
        .where(eq(passkeys.staffUserId, admin.id));
      expect(left).toHaveLength(1);
      kept = left[0]!.id === other.id ? other : kept;
    }
  });
});
