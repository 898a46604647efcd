import { expect, it } from "vitest";
import { describeEachBackend } from "#tests/setup/database.ts";
import { createStaffAccount } from "../staff/accounts.ts";
import { advanceSessionStage, createSession, resolveSession } from "./sessions.ts";

describeEachBackend(
  "a session's stage",
  (database) => {
    it("starts where the sign-in left it, names itself without its token, and moves only forward from the stage it is at", async () => {
      const { deps } = database();
      const created = await createStaffAccount(deps, {
        email: "stage@castellum.example",
        displayName: "Stage",
        password: "a long enough passphrase 42",
        isAdmin: true,
      });
      if (created.outcome !== "created") throw new Error(created.outcome);
      const admin = created.user;
      const pending = await createSession(
        deps,
        { role: "staff", staffUserId: admin.id },
        {},
        undefined,
        "second_factor",
      );
      const first = await resolveSession(deps, pending.token);
      expect(first).toMatchObject({ role: "staff", stage: "second_factor" });
      const sessionId = first?.sessionId;
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(sessionId).not.toContain(pending.token);

      expect(await advanceSessionStage(deps, pending.token, "enrolment", "complete")).toBeNull();
      expect(await resolveSession(deps, pending.token)).toMatchObject({ stage: "second_factor" });
      const moved = await advanceSessionStage(deps, pending.token, "second_factor", "complete");
      // Complete under a new token: the one that only knew the password is void.
      expect(moved?.token).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(moved?.token).not.toBe(pending.token);
      expect(await resolveSession(deps, pending.token)).toBeNull();
      expect(await resolveSession(deps, moved!.token)).toMatchObject({
        stage: "complete",
        sessionId,
      });

      const other = await createSession(deps, { role: "staff", staffUserId: admin.id }, {});
      expect((await resolveSession(deps, other.token))?.sessionId).not.toBe(sessionId);
    });
  },
  { seed: false },
);
