import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { type NextFunction, type Request, type Response, Router } from "express";
import { signInOwnerWithPasskey, signInStaffWithPasskey } from "#domain/auth/passkey-sign-in.ts";
import * as api from "#domain/auth/passkeys.contract.ts";
import {
  finishPasskeyRegistration,
  listPasskeys,
  type PasskeyHolder,
  relyingPartyOf,
  removePasskey,
  type StaffPasskeyHolder,
  startPasskeyAuthentication,
  startPasskeyRegistration,
} from "#domain/auth/passkeys.ts";
import {
  advanceSessionStage,
  closeEnrolmentSessions,
  revokeSession,
} from "#domain/auth/sessions.ts";
import type { Deps } from "#domain/deps.ts";
import { countUnusedRecoveryCodes } from "#domain/staff/mfa/recovery-codes.ts";
import {
  hasSecondFactor,
  regenerateRecoveryCodes,
  removeStaffPasskey,
} from "#domain/staff/mfa/second-factor.ts";
import { staffAccessOf, type StaffUser } from "#domain/staff/staff-user.ts";
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE_SECONDS } from "#i18n/config.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import {
  readSessionToken,
  requireAdminApi,
  type SessionCookie,
  setSessionCookie,
} from "../middleware/session.ts";
import type { StaffServices } from "../services.ts";
import { signInStepOf } from "../middleware/sign-in-stage.ts";
import { defineRoute, refuse } from "./define-route.ts";
import { passwordAgainRefusal } from "./password-again.ts";
import { sendError } from "./errors.ts";

const clientOf = (req: Request) => ({ ip: req.ip, userAgent: req.get("user-agent") });

/** A staff session that may add a factor, as `requireFactorSession` settled it. */
interface FactorSession {
  user: StaffUser;
  stage: "complete" | "enrolment";
  /** The session's token and expiry, for an enrolment that this factor completes. */
  token?: string;
  expiresAt?: Date;
  sessionId: string;
}

declare global {
  namespace Express {
    interface Locals {
      factorSession?: FactorSession;
    }
  }
}

/**
 * A staff session that may add a factor, of an account that may open the staff area: a
 * complete one, or a sign-in at `enrolment` (a password right) of an account with no factor
 * yet. Once the account has one, such a sign-in must give it like any other.
 */
function requireFactorSession(deps: Deps, adminEmailDomain: string) {
  return async (_req: Request, res: Response, next: NextFunction) => {
    try {
      const step = signInStepOf(res);
      const session = res.locals.session;
      let factorSession: FactorSession | null = null;
      if (step?.stage === "enrolment" && !(await hasSecondFactor(deps, step.user.id)))
        factorSession = { ...step, stage: "enrolment" };
      else if (!step && session?.role === "staff")
        factorSession = { user: session.user, stage: "complete", sessionId: session.sessionId };
      if (!factorSession)
        return sendError(
          res,
          401,
          step ? "sign_in_incomplete" : "not_signed_in",
          step ? "staff.errors.signInIncomplete" : "staff.errors.notSignedIn",
        );
      const access = staffAccessOf(factorSession.user, adminEmailDomain);
      if (access !== "granted") return sendError(res, 403, "not_admin", "staff.errors.notAdmin");
      res.locals.factorSession = factorSession;
      res.set("Cache-Control", "private, no-store");
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** The staff member acting: the factor session's, or the complete session's. */
function staffHolder(res: Response): StaffPasskeyHolder {
  const user =
    res.locals.factorSession?.user ??
    (res.locals.session?.role === "staff" ? res.locals.session.user : undefined);
  if (!user) throw new Error("a staff guard must run first");
  const { id, email, displayName } = user;
  return { role: "staff", staffUserId: id, email, displayName };
}

function requireOwner(_req: Request, res: Response, next: NextFunction) {
  res.set("Cache-Control", "private, no-store");
  if (res.locals.session?.role !== "owner")
    return sendError(res, 401, "not_signed_in", "owner.errors.notSignedIn");
  next();
}

function ownerHolder(res: Response): PasskeyHolder {
  const session = res.locals.session;
  if (session?.role !== "owner") throw new Error("requireOwner must run first");
  return { role: "owner", email: session.ownerEmail };
}

/** The passkey calls of staff and owners. */
export function passkeyRoutes(
  deps: Deps,
  staff: StaffServices,
  options: { cookie: SessionCookie; publicUrl: string },
): Router {
  const router = Router();
  const { cookie } = options;
  const rp = relyingPartyOf(options.publicUrl);
  const sameOrigin = sameOriginOnly(options.publicUrl);
  const factorSession = requireFactorSession(deps, staff.adminEmailDomain);
  const requireAdmin = requireAdminApi(staff.adminEmailDomain);

  /** The password asked again before a factor changes: a refusal, or null when right. */
  const passwordRefusal = (
    req: Request,
    res: Response,
    password: string,
    action: "passkey_registration" | "passkey_removal",
  ) => {
    const holder = staffHolder(res);
    return passwordAgainRefusal(
      deps,
      staff.loginLimits,
      req,
      res,
      { user: { id: holder.staffUserId, email: holder.email }, password, action },
      () => refuse(401, "wrong_password", "staff.passkeys.errors.wrongPassword"),
    );
  };

  defineRoute(router, api.startStaffPasskeyRegistration, {
    before: [sameOrigin, factorSession],
    async handle({ body, req, res }) {
      const refusal = await passwordRefusal(req, res, body.password, "passkey_registration");
      if (refusal) return refusal;
      const options = await startPasskeyRegistration(deps, rp, staffHolder(res));
      return { status: 200, body: options };
    },
  });

  defineRoute(router, api.addStaffPasskey, {
    before: [sameOrigin, factorSession],
    async handle({ body, req, res }) {
      const result = await finishPasskeyRegistration(deps, rp, staffHolder(res), {
        response: body.response as unknown as RegistrationResponseJSON,
        name: body.name,
        client: clientOf(req),
      });
      if (result.outcome === "refused")
        return refuse(400, "passkey_not_saved", "staff.passkeys.errors.notSaved");
      // A sign-in waiting for its first factor is complete once it has one, and gets its
      // recovery codes with it, as with the authenticator app: the way back in without the key.
      const session = res.locals.factorSession;
      if (!session) throw new Error("requireFactorSession must run first");
      await closeEnrolmentSessions(deps, session.user.id, session.sessionId);
      let recoveryCodes: string[] | undefined;
      if (session.stage === "enrolment" && session.token) {
        const moved = await advanceSessionStage(deps, session.token, "enrolment", "complete");
        if (moved && session.expiresAt)
          setSessionCookie(res, cookie, moved.token, session.expiresAt);
        if ((await countUnusedRecoveryCodes(deps, session.user.id)) === 0) {
          const issued = await regenerateRecoveryCodes(deps, {
            user: session.user,
            client: clientOf(req),
          });
          if (issued.outcome === "created") recoveryCodes = issued.recoveryCodes;
        }
      }
      return {
        status: 201,
        body: { passkey: result.passkey, ...(recoveryCodes && { recoveryCodes }) },
      };
    },
  });

  defineRoute(router, api.listStaffPasskeys, {
    // Open at enrolment too, so the enrolment page can show the panel.
    before: [factorSession],
    async handle({ res }) {
      return { status: 200, body: { passkeys: await listPasskeys(deps, staffHolder(res)) } };
    },
  });

  defineRoute(router, api.removeStaffPasskey, {
    before: [sameOrigin, requireAdmin],
    async handle({ params, body, req, res }) {
      const refusal = await passwordRefusal(req, res, body.password, "passkey_removal");
      if (refusal) return refusal;
      // While a second factor is required, the last one stays (as for the authenticator app).
      const { outcome } = await removeStaffPasskey(deps, {
        holder: staffHolder(res),
        id: params.id,
        mfaRequired: staff.mfaRequired,
        client: clientOf(req),
      });
      if (outcome === "last_factor") return refuse(409, "last_factor", "staff.mfa.lastFactor");
      if (outcome === "not_found")
        return refuse(404, "passkey_not_found", "staff.passkeys.errors.notFound");
      return { status: 200, body: { ok: true } };
    },
  });

  defineRoute(router, api.startStaffPasskeySignIn, {
    before: [sameOrigin],
    async handle({ res }) {
      res.set("Cache-Control", "no-store");
      const step = signInStepOf(res);
      const holder: StaffPasskeyHolder | undefined =
        step?.stage === "second_factor"
          ? {
              role: "staff",
              staffUserId: step.user.id,
              email: step.user.email,
              displayName: step.user.displayName,
            }
          : undefined;
      return { status: 200, body: await startPasskeyAuthentication(deps, rp, "staff", holder) };
    },
  });

  defineRoute(router, api.signInStaffWithPasskey, {
    before: [sameOrigin],
    async handle({ body, req, res }) {
      res.set("Cache-Control", "no-store");
      const step = signInStepOf(res);
      const token = readSessionToken(req, cookie);
      const secondStep =
        step?.stage === "second_factor" ? { token: step.token, user: step.user } : undefined;
      const result = await signInStaffWithPasskey(deps, rp, {
        response: body.response as unknown as AuthenticationResponseJSON,
        adminEmailDomain: staff.adminEmailDomain,
        client: clientOf(req),
        policy: cookie.policy,
        secondStep,
      });
      if (result.outcome === "refused")
        return refuse(401, "passkey_refused", "staff.passkeys.errors.refused");
      if (result.outcome === "second_step_done" && step)
        setSessionCookie(res, cookie, result.token, step.expiresAt);
      if (result.outcome === "signed_in") {
        // One person per cookie: the browser's earlier session (staff or owner) ends.
        if (token) await revokeSession(deps, token);
        setSessionCookie(res, cookie, result.token, result.expiresAt);
      }
      // The staff area opens in the account's own language, as after a password sign-in.
      res.cookie(LANGUAGE_COOKIE, result.user.language, {
        maxAge: LANGUAGE_COOKIE_MAX_AGE_SECONDS * 1000,
        sameSite: "strict",
        secure: cookie.secure,
        path: "/",
      });
      return { status: 200, body: { signedIn: true } };
    },
  });

  defineRoute(router, api.startOwnerPasskeyRegistration, {
    before: [sameOrigin, requireOwner],
    async handle({ res }) {
      return { status: 200, body: await startPasskeyRegistration(deps, rp, ownerHolder(res)) };
    },
  });

  defineRoute(router, api.addOwnerPasskey, {
    before: [sameOrigin, requireOwner],
    async handle({ body, req, res }) {
      const result = await finishPasskeyRegistration(deps, rp, ownerHolder(res), {
        response: body.response as unknown as RegistrationResponseJSON,
        name: body.name,
        client: clientOf(req),
      });
      if (result.outcome === "refused")
        return refuse(400, "passkey_not_saved", "owner.passkeys.errors.notSaved");
      return { status: 201, body: { passkey: result.passkey } };
    },
  });

  defineRoute(router, api.listOwnerPasskeys, {
    before: [requireOwner],
    async handle({ res }) {
      return { status: 200, body: { passkeys: await listPasskeys(deps, ownerHolder(res)) } };
    },
  });

  defineRoute(router, api.removeOwnerPasskey, {
    before: [sameOrigin, requireOwner],
    async handle({ params, req, res }) {
      const removed = await removePasskey(deps, ownerHolder(res), params.id, clientOf(req));
      if (!removed) return refuse(404, "passkey_not_found", "owner.passkeys.errors.notFound");
      return { status: 200, body: { ok: true } };
    },
  });

  defineRoute(router, api.startOwnerPasskeySignIn, {
    before: [sameOrigin],
    async handle({ res }) {
      res.set("Cache-Control", "no-store");
      return { status: 200, body: await startPasskeyAuthentication(deps, rp, "owner") };
    },
  });

  defineRoute(router, api.signInOwnerWithPasskey, {
    before: [sameOrigin],
    async handle({ body, req, res }) {
      res.set("Cache-Control", "no-store");
      const result = await signInOwnerWithPasskey(deps, rp, {
        response: body.response as unknown as AuthenticationResponseJSON,
        client: clientOf(req),
        policy: cookie.policy,
      });
      if (result.outcome === "refused")
        return refuse(401, "passkey_refused", "owner.passkeys.errors.refused");
      const previous = readSessionToken(req, cookie);
      if (previous) await revokeSession(deps, previous);
      setSessionCookie(res, cookie, result.token, result.expiresAt);
      return { status: 200, body: { signedIn: true } };
    },
  });

  return router;
}
