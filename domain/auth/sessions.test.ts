import { expect, it } from "vitest";
import { authSessions } from "#db/schema/index.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { createTestStaff } from "#tests/setup/staff.ts";
import { manualClock } from "../clock.ts";
import {
  createSession,
  DEFAULT_SESSION_POLICY,
  listStaffSessions,
  purgeExpiredSessions,
  sessionPolicyOf,
  resolveSession,
} from "./sessions.ts";

const { idleMs, absoluteMs } = DEFAULT_SESSION_POLICY;
const HOUR = 60 * 60_000;

describeEachBackend(
  "a session's life, by the clock it is given",
  (database) => {
    it("ends after its idle limit without a request, and at its absolute limit however busy", async () => {
      const clock = manualClock(Date.UTC(2026, 2, 1, 8, 0, 0));
      const deps = { ...database().deps, clock };
      const user = await createTestStaff(deps, "life@castellum.test", { isAdmin: true });
      const subject = { role: "staff", staffUserId: user.id } as const;

      const idle = await createSession(deps, subject, {});
      clock.advance(idleMs - 1);
      expect(await resolveSession(deps, idle.token)).toMatchObject({ role: "staff" });
      // Seen just now: the idle limit counts from that request.
      clock.advance(idleMs - 1);
      expect(await resolveSession(deps, idle.token)).toMatchObject({ role: "staff" });
      clock.advance(idleMs);
      expect(await resolveSession(deps, idle.token)).toBeNull();

      const busy = await createSession(deps, subject, {});
      const signedInAt = clock().getTime();
      expect(busy.expiresAt.getTime()).toBe(signedInAt + absoluteMs);
      for (let at = signedInAt + 6 * HOUR; at < signedInAt + absoluteMs; at += 6 * HOUR) {
        clock.set(at);
        expect(await resolveSession(deps, busy.token)).not.toBeNull();
      }
      clock.set(signedInAt + absoluteMs);
      expect(await resolveSession(deps, busy.token)).toBeNull();
    });

    it("lists only live sessions, and housekeeping deletes the ended ones", async () => {
      const clock = manualClock(Date.UTC(2026, 2, 1, 8, 0, 0));
      const deps = { ...database().deps, clock };
      const user = await createTestStaff(deps, "list@castellum.test", { isAdmin: true });
      const subject = { role: "staff", staffUserId: user.id } as const;
      const early = await createSession(deps, subject, { userAgent: "early" });
      clock.advance(idleMs / 2);
      await createSession(deps, subject, { userAgent: "late" });
      expect((await listStaffSessions(deps, user.id)).map((s) => s.userAgent)).toEqual([
        "late",
        "early",
      ]);
      // The early one goes idle; the late one is still within its limit.
      clock.advance(idleMs / 2 + 1);
      expect((await listStaffSessions(deps, user.id)).map((s) => s.userAgent)).toEqual(["late"]);
      await purgeExpiredSessions(deps);
      const kept = await deps.db.select({ userAgent: authSessions.userAgent }).from(authSessions);
      expect(kept.map((s) => s.userAgent)).not.toContain("early");
      expect(kept.map((s) => s.userAgent)).toContain("late");
      expect(await resolveSession(deps, early.token)).toBeNull();
    });

    it("housekeeping ends sessions by the configured idle time, not the default", async () => {
      const clock = manualClock(Date.UTC(2026, 2, 2, 8, 0, 0));
      const deps = { ...database().deps, clock };
      const user = await createTestStaff(deps, "idle@castellum.test", { isAdmin: true });
      const policy = sessionPolicyOf({ SESSION_IDLE_HOURS: 1, SESSION_MAX_DAYS: 7 });
      await createSession(
        deps,
        { role: "staff", staffUserId: user.id },
        { userAgent: "idle" },
        policy,
      );
      clock.advance(2 * 60 * 60_000);
      const left = async () =>
        (await deps.db.select({ userAgent: authSessions.userAgent }).from(authSessions)).map(
          (s) => s.userAgent,
        );
      await purgeExpiredSessions(deps);
      expect(await left()).toContain("idle");
      await purgeExpiredSessions(deps, policy);
      expect(await left()).not.toContain("idle");
    });
  },
  { seed: false },
);
