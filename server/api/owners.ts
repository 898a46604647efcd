import { type NextFunction, type Request, type Response, Router } from "express";
import type { z } from "zod";
import { revokeSession } from "#domain/auth/sessions.ts";
import type { Deps } from "#domain/deps.ts";
import { ValidationError } from "#domain/errors.ts";
import { updateEstateField, updateEstateImages } from "#domain/owners/edits.ts";
import { getOwnerPropertyDetails, resolveEstate } from "#domain/owners/estates.ts";
import { isEmailAddress } from "#domain/owners/owner-fields.ts";
import type { EstateActor } from "#domain/owners/owner-property.ts";
import { OWNER_CODE_POLICY } from "#domain/owners/owner-code.ts";
import { rememberOwnerLanguage } from "#domain/owners/owner-requests.ts";
import {
  claimProperty,
  getOwnerProperty,
  ownerLogout,
  updateOwnerImages,
  updateOwnerProperty,
  verifyOwnerCode,
  verifyOwnerEmail,
} from "#domain/owners/owners.contract.ts";
import { checkOwnerCode, claimOwnerEstate, requestOwnerCode } from "#domain/owners/verification.ts";
import { staffAccessOf } from "#domain/staff/staff-user.ts";
import { readCookie } from "../middleware/language.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import { recordAccessRefused } from "../middleware/security-log.ts";
import {
  clearSessionCookie,
  readSessionToken,
  type SessionCookie,
  setSessionCookie,
} from "../middleware/session.ts";
import type { OwnerServices } from "../services.ts";
import { defineRoute, refuse } from "./define-route.ts";
import { sendError } from "./errors.ts";

declare global {
  namespace Express {
    interface Locals {
      /** Who acts on an estate in this request and which estate, settled by `estateAccess`. */
      estateActor?: EstateActor;
      propertyId?: number;
    }
  }
}

/** The claim step's proof: httpOnly, this API's path only, as long as the proof lives. */
export const PROOF_COOKIE = "castellum_owner_proof";
const PROOF_PATH = "/api/property-owners";

/**
 * An owner body that breaks its schema: a 400 naming the first field, with the domain's own
 * message where the schema carries one (an unknown field, an invalid selection).
 */
function refuseOwnerInput(_part: string, error: z.ZodError): never {
  const issue = error.issues[0];
  const message = issue?.message.startsWith("owner.") ? issue.message : "owner.errors.invalid";
  throw new ValidationError([{ path: String(issue?.path[0] ?? ""), message }]);
}

/** `?propertyId=` or `propertyId` in a JSON body, when it is a positive whole number. */
function requestedEstate(req: Request): number | undefined | "invalid" {
  const raw =
    req.query.propertyId ?? (req.body as { propertyId?: unknown } | undefined)?.propertyId;
  if (raw === undefined) return undefined;
  const value = typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw) : NaN;
  return Number.isInteger(value) && value > 0 && value < 2 ** 31 ? value : "invalid";
}

/**
 * Guards every call on an estate (on the server): an owner session acts on its
 * own claimed estates only; a staff session must be a company admin and name the estate.
 * Sets `res.locals.estateActor` and `res.locals.propertyId`, or answers 401/403/404.
 */
export function estateAccess(deps: Deps, adminEmailDomain: string) {
  return async (req: Request, res: Response, next: NextFunction) => {
    res.set("Cache-Control", "private, no-store");
    const session = res.locals.session;
    // Each refusal is one `access.refused` entry of the security log.
    if (!session) {
      await recordAccessRefused(req, res, 401);
      return sendError(res, 401, "not_signed_in", "owner.errors.notSignedIn");
    }
    let actor: EstateActor;
    if (session.role === "owner") actor = { role: "owner", email: session.ownerEmail };
    else {
      const access = staffAccessOf(session.user, adminEmailDomain);
      if (access !== "granted") {
        await recordAccessRefused(req, res, 403);
        return sendError(res, 403, "forbidden", "owner.errors.forbidden");
      }
      actor = { role: "staff", staffUserId: session.user.id, email: session.user.email };
    }
    const requested = requestedEstate(req);
    if (requested === "invalid")
      return sendError(res, 404, "estate_not_found", "errors.propertyNotFound");
    try {
      res.locals.propertyId = await resolveEstate(deps, actor, requested);
      res.locals.estateActor = actor;
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** The estate `estateAccess` settled for this request. */
export function settledEstate(res: Response): { actor: EstateActor; propertyId: number } {
  const { estateActor: actor, propertyId } = res.locals;
  if (!actor || propertyId === undefined) throw new Error("estateAccess must run first");
  return { actor, propertyId };
}

/** The owner flow: verify, prove the code, claim, then edit the estate. */
export function ownerRoutes(
  deps: Deps,
  owners: OwnerServices,
  options: { adminEmailDomain: string; cookie: SessionCookie; publicUrl: string },
): Router {
  const router = Router();
  const sameOrigin = sameOriginOnly(options.publicUrl);
  const access = estateAccess(deps, options.adminEmailDomain);
  const { cookie } = options;

  defineRoute(router, verifyOwnerEmail, {
    before: [sameOrigin],
    onInvalid: refuseOwnerInput,
    async handle({ body: { email }, req, res }) {
      res.set("Cache-Control", "no-store");
      if (!isEmailAddress(email.trim()))
        throw new ValidationError([{ path: "email", message: "owner.errors.emailInvalid" }]);
      const result = await requestOwnerCode(deps, owners.codeLimits, {
        email,
        ip: req.ip,
        userAgent: req.get("user-agent"),
        language: res.locals.language,
      });
      if (result.outcome === "rate_limited") {
        res.set("Retry-After", String(result.retryAfterSeconds));
        const minutes = Math.ceil(result.retryAfterSeconds / 60);
        return refuse(429, "too_many_codes", "owner.errors.tooManyCodes", {
          count: minutes,
          minutes,
        });
      }
      if (result.outcome === "unavailable")
        return refuse(503, "limiter_unavailable", "owner.errors.limiterUnavailable");
      if (result.outcome === "not_found") return { status: 200, body: { propertyFound: false } };
      owners.onMailQueued();
      // Local use without a mail server: the code is also in the development log.
      if (owners.logCodes)
        deps.log.info({ email: email.trim().toLowerCase(), code: result.code }, "owner code");
      return { status: 200, body: { propertyFound: true, codeSent: true } };
    },
  });

  defineRoute(router, verifyOwnerCode, {
    before: [sameOrigin],
    onInvalid: refuseOwnerInput,
    async handle({ body, req, res }) {
      res.set("Cache-Control", "no-store");
      const result = await checkOwnerCode(deps, {
        ...body,
        language: res.locals.language,
        ip: req.ip,
        userAgent: req.get("user-agent"),
      });
      // The same answer whatever was typed: a locked email says nothing about the code.
      if (result.outcome === "locked") return refuse(429, "code_locked", "owner.guesses.locked");
      if (result.outcome === "expired")
        return refuse(410, "code_expired", "owner.errors.codeExpired");
      if (result.outcome === "wrong")
        return refuse(400, "code_invalid", "owner.errors.codeInvalid", {
          count: result.attemptsLeft,
        });
      // Mails about requests for the estate go out in the language used here.
      await rememberOwnerLanguage(deps, body.email, res.locals.language);
      res.cookie(PROOF_COOKIE, result.proofToken, {
        httpOnly: true,
        sameSite: "strict",
        secure: cookie.secure,
        path: PROOF_PATH,
        maxAge: OWNER_CODE_POLICY.proofTtlMs,
      });
      const [first] = result.estates;
      return {
        status: 200,
        body: {
          propertyFound: result.estates.length > 0,
          ...(first ? { property: first } : {}),
          properties: result.estates,
        },
      };
    },
  });

  defineRoute(router, claimProperty, {
    before: [sameOrigin],
    onInvalid: refuseOwnerInput,
    async handle({ body, req, res }) {
      res.set("Cache-Control", "no-store");
      const result = await claimOwnerEstate(
        deps,
        {
          ...body,
          proofToken: readCookie(req.headers.cookie, PROOF_COOKIE),
          ip: req.ip,
          userAgent: req.get("user-agent"),
          language: res.locals.language,
        },
        cookie.policy,
      );
      if (result.outcome === "refused")
        return refuse(403, "claim_failed", "owner.errors.claimFailed");
      res.clearCookie(PROOF_COOKIE, { path: PROOF_PATH, httpOnly: true, sameSite: "strict" });
      // Any earlier session of this browser (staff or owner) ends: one person per cookie.
      const previous = readSessionToken(req, cookie);
      if (previous) await revokeSession(deps, previous);
      setSessionCookie(res, cookie, result.session.token, result.session.expiresAt);
      return { status: 200, body: { claimed: true, property: result.estate } };
    },
  });

  defineRoute(router, getOwnerProperty, {
    before: [access],
    async handle({ res }) {
      const details = await getOwnerPropertyDetails(deps, settledEstate(res).actor, {
        propertyId: settledEstate(res).propertyId,
        language: res.locals.language,
      });
      return { status: 200, body: details };
    },
  });

  defineRoute(router, updateOwnerImages, {
    before: [sameOrigin],
    after: [access],
    onInvalid: refuseOwnerInput,
    async handle({ body, res }) {
      const { actor, propertyId } = settledEstate(res);
      const result = await updateEstateImages(deps, actor, {
        propertyId,
        selectedImages: body.selectedImages,
      });
      return { status: 200, body: { selectedImages: result.selectedImages } };
    },
  });

  defineRoute(router, updateOwnerProperty, {
    before: [sameOrigin],
    after: [access],
    onInvalid: refuseOwnerInput,
    async handle({ body, res }) {
      const { actor, propertyId } = settledEstate(res);
      const result = await updateEstateField(deps, actor, {
        propertyId,
        field: body.field,
        value: body.value,
        language: body.lang ?? res.locals.language,
      });
      return {
        status: 200,
        body: {
          field: result.field,
          lang: result.lang,
          value: result.value,
          formatted: result.formatted,
          changed: result.changed,
        },
      };
    },
  });

  defineRoute(router, ownerLogout, {
    before: [sameOrigin],
    async handle({ req, res }) {
      res.set("Cache-Control", "no-store");
      const session = res.locals.session;
      const token = readSessionToken(req, cookie);
      // Only an owner's session ends here; staff sign out of the staff area.
      if (token && session?.role === "owner") {
        await revokeSession(deps, token);
        clearSessionCookie(res, cookie);
      }
      return { status: 200, body: { ok: true } };
    },
  });

  return router;
}
