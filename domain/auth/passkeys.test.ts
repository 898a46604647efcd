import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { expect, it } from "vitest";
import { describeEachBackend } from "#tests/setup/database.ts";
import { createTestStaff } from "#tests/setup/staff.ts";
import { SoftAuthenticator, type WebAuthnOptionsJson } from "#tests/setup/webauthn.ts";
import { manualClock } from "../clock.ts";
import {
  CHALLENGE_TTL_MS,
  finishPasskeyRegistration,
  type PasskeyHolder,
  relyingPartyOf,
  startPasskeyRegistration,
} from "./passkeys.ts";

const RP = relyingPartyOf("http://localhost");

describeEachBackend(
  "a passkey challenge's life, by the clock it is given",
  (database) => {
    it("is taken until its time is up, and refused after", async () => {
      const clock = manualClock(Date.UTC(2026, 2, 1, 8, 0, 0));
      const deps = { ...database().deps, clock };
      const user = await createTestStaff(deps, "challenge@castellum.test", { isAdmin: true });
      const holder: PasskeyHolder = { role: "staff", staffUserId: user.id, email: user.email };
      const key = new SoftAuthenticator(RP);
      const register = async (name: string, after: number) => {
        const options = (await startPasskeyRegistration(deps, RP, holder)) as WebAuthnOptionsJson;
        clock.advance(after);
        return finishPasskeyRegistration(deps, RP, holder, {
          // The software key writes its attachment as a plain string.
          response: key.register(options) as RegistrationResponseJSON,
          name,
        });
      };
      expect((await register("Late", CHALLENGE_TTL_MS)).outcome).toBe("refused");
      expect((await register("In time", CHALLENGE_TTL_MS - 1_000)).outcome).toBe("saved");
    });
  },
  { seed: false },
);
