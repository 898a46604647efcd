import { type NextFunction, type Request, type Response, Router } from "express";
import { z } from "zod";
import { revokeSession } from "../../domain/auth/sessions.ts";
import type { Deps } from "../../domain/deps.ts";
import { ValidationError } from "../../domain/errors.ts";
import { updateEstateField, updateEstateImages } from "../../domain/owners/edits.ts";
import { getOwnerPropertyDetails, resolveEstate } from "../../domain/owners/estates.ts";
import { isEmailAddress } from "../../domain/owners/owner-fields.ts";
import type { EstateActor } from "../../domain/owners/owner-property.ts";
import {
  checkOwnerCode,
  claimOwnerEstate,
  requestOwnerCode,
} from "../../domain/owners/verification.ts";
import { staffAccessOf } from "../../domain/staff/staff-user.ts";
import { isLanguage, type Language } from "../../i18n/config.ts";
import { readCookie } from "../middleware/language.ts";
import { sameOriginOnly } from "../middleware/request-guards.ts";
import {
  clearSessionCookie,
  readSessionToken,
  type SessionCookie,
  setSessionCookie,
} from "../middleware/session.ts";
import type { OwnerServices } from "../services.ts";
import { ignoredBody, jsonBody } from "./body.ts";
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

const EmailSchema = z.strictObject({
  email: z.string().max(254),
});
const CodeSchema = z.strictObject({
  email: z.string().max(254),
  code: z.string().max(32),
});
const ClaimSchema = z.strictObject({
  email: z.string().max(254),
  propertyId: z.number().int().positive().optional(),
});

function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new ValidationError([
      {
        path: String(parsed.error.issues[0]?.path[0] ?? ""),
        message: "owner.errors.invalid",
      },
    ]);
  return parsed.data;
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
 * Guards every call on an estate (spec point 6, on the server): an owner session acts on its
 * own claimed estates only; a staff session must be a company admin and name the estate.
 * Sets `res.locals.estateActor` and `res.locals.propertyId`, or answers 401/403/404.
 */
export function estateAccess(deps: Deps, adminEmailDomain: string) {
  return async (req: Request, res: Response, next: NextFunction) => {
    res.set("Cache-Control", "private, no-store");
    const session = res.locals.session;
    if (!session) return sendError(res, 401, "owner.errors.notSignedIn");
    let actor: EstateActor;
    if (session.role === "owner") actor = { role: "owner", email: session.ownerEmail };
    else {
      const access = staffAccessOf(session.user, adminEmailDomain);
      if (access !== "granted") return sendError(res, 403, "owner.errors.forbidden");
      actor = { role: "staff", staffUserId: session.user.id, email: session.user.email };
    }
    const requested = requestedEstate(req);
    if (requested === "invalid") return sendError(res, 404, "errors.propertyNotFound");
    try {
      res.locals.propertyId = await resolveEstate(deps, actor, requested);
      res.locals.estateActor = actor;
      next();
    } catch (error) {
      next(error);
    }
  };
}

function editingLanguage(req: Request, res: Response): Language {
  const lang = (req.body as { lang?: unknown } | undefined)?.lang;
  return isLanguage(lang) ? lang : res.locals.language;
}

/** The owner flow of spec point 7: verify, prove the code, claim, then edit the estate. */
export function ownerRoutes(
  deps: Deps,
  owners: OwnerServices,
  options: { adminEmailDomain: string; cookie: SessionCookie; publicUrl: string },
): Router {
  const router = Router();
  const sameOrigin = sameOriginOnly(options.publicUrl);
  const access = estateAccess(deps, options.adminEmailDomain);
  const { cookie } = options;

  router.post(
    "/property-owners/verify-email",
    sameOrigin,
    ...jsonBody(),
    async (req: Request, res: Response) => {
      res.set("Cache-Control", "no-store");
      const { email } = parseBody(EmailSchema, req.body);
      if (!isEmailAddress(email.trim()))
        throw new ValidationError([{ path: "email", message: "owner.errors.emailInvalid" }]);
      const result = await requestOwnerCode(deps, owners.codeLimits, {
        email,
        ip: req.ip,
        language: res.locals.language,
      });
      if (result.outcome === "rate_limited") {
        res.set("Retry-After", String(result.retryAfterSeconds));
        return sendError(res, 429, "owner.errors.tooManyCodes", {
          count: Math.ceil(result.retryAfterSeconds / 60),
          minutes: Math.ceil(result.retryAfterSeconds / 60),
        });
      }
      if (result.outcome === "unavailable")
        return sendError(res, 503, "owner.errors.limiterUnavailable");
      if (result.outcome === "not_found") return res.json({ propertyFound: false });
      owners.onMailQueued();
      // Local use without a mail server: the code is also in the development log.
      if (owners.logCodes)
        deps.log.info({ email: email.trim().toLowerCase(), code: result.code }, "owner code");
      res.json({ propertyFound: true, codeSent: true });
    },
  );

  router.post(
    "/property-owners/verify-code",
    sameOrigin,
    ...jsonBody(),
    async (req: Request, res: Response) => {
      res.set("Cache-Control", "no-store");
      const input = parseBody(CodeSchema, req.body);
      const result = await checkOwnerCode(deps, { ...input, language: res.locals.language });
      if (result.outcome === "expired") return sendError(res, 410, "owner.errors.codeExpired");
      if (result.outcome === "wrong")
        return sendError(res, 400, "owner.errors.codeInvalid", { count: result.attemptsLeft });
      res.cookie(PROOF_COOKIE, result.proofToken, {
        httpOnly: true,
        sameSite: "strict",
        secure: cookie.secure,
        path: PROOF_PATH,
        maxAge: 10 * 60_000,
      });
      const [first] = result.estates;
      res.json({
        propertyFound: result.estates.length > 0,
        ...(first ? { property: first } : {}),
        properties: result.estates,
      });
    },
  );

  router.post(
    "/property-owners/claim-property",
    sameOrigin,
    ...jsonBody(),
    async (req: Request, res: Response) => {
      res.set("Cache-Control", "no-store");
      const input = parseBody(ClaimSchema, req.body);
      const result = await claimOwnerEstate(
        deps,
        {
          ...input,
          proofToken: readCookie(req.headers.cookie, PROOF_COOKIE),
          ip: req.ip,
          userAgent: req.get("user-agent"),
          language: res.locals.language,
        },
        cookie.policy,
      );
      if (result.outcome === "refused") return sendError(res, 403, "owner.errors.claimFailed");
      res.clearCookie(PROOF_COOKIE, { path: PROOF_PATH, httpOnly: true, sameSite: "strict" });
      // Any earlier session of this browser (staff or owner) ends: one person per cookie.
      const previous = readSessionToken(req, cookie);
      if (previous) await revokeSession(deps, previous);
      setSessionCookie(res, cookie, result.session.token, result.session.expiresAt);
      res.json({ claimed: true, property: result.estate });
    },
  );

  router.get("/property-owners/property-details", access, async (_req, res: Response) => {
    const details = await getOwnerPropertyDetails(deps, res.locals.estateActor!, {
      propertyId: res.locals.propertyId!,
      language: res.locals.language,
    });
    res.json(details);
  });

  router.post(
    "/property-owners/update-images",
    sameOrigin,
    ...jsonBody(),
    access,
    async (req: Request, res: Response) => {
      const result = await updateEstateImages(deps, res.locals.estateActor!, {
        propertyId: res.locals.propertyId!,
        selectedImages: (req.body as { selectedImages?: unknown }).selectedImages,
      });
      res.json({ selectedImages: result.selectedImages });
    },
  );

  router.post(
    "/property-owners/update-property",
    sameOrigin,
    ...jsonBody(),
    access,
    async (req: Request, res: Response) => {
      const body = req.body as { field?: unknown; value?: unknown };
      const result = await updateEstateField(deps, res.locals.estateActor!, {
        propertyId: res.locals.propertyId!,
        field: body.field,
        value: body.value,
        language: editingLanguage(req, res),
      });
      res.json({
        field: result.field,
        lang: result.lang,
        value: result.value,
        formatted: result.formatted,
        changed: result.changed,
      });
    },
  );

  router.post(
    "/property-owners/logout",
    sameOrigin,
    ignoredBody(),
    async (req: Request, res: Response) => {
      res.set("Cache-Control", "no-store");
      const session = res.locals.session;
      const token = readSessionToken(req, cookie);
      // Only an owner's session ends here; staff sign out of the staff area.
      if (token && session?.role === "owner") {
        await revokeSession(deps, token);
        clearSessionCookie(res, cookie);
      }
      res.json({ ok: true });
    },
  );

  return router;
}
