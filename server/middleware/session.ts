import type { NextFunction, Request, Response } from "express";
import { resolveSession, type SessionPolicy, type SignedIn } from "#domain/auth/sessions.ts";
import type { Deps } from "#domain/deps.ts";
import { type StaffAccess, staffAccessOf } from "#domain/staff/staff-user.ts";
import { sendError } from "../api/errors.ts";
import { readCookie } from "./language.ts";
import { recordAccessRefused, securityRecorderOf } from "./security-log.ts";

declare global {
  namespace Express {
    interface Locals {
      /**
       * The signed-in person, settled by `sessionMiddleware` (null: nobody). A staff session is
       * here only once complete; one short of its second factor is `signInStep`.
       */
      session: SignedIn | null;
    }
  }
}

export interface SessionCookie {
  /** `__Host-castellum_session` in production (Secure, Path=/, no Domain), else `castellum_session`. */
  name: string;
  secure: boolean;
  policy: SessionPolicy;
}

export function sessionCookieOf(isProduction: boolean, policy: SessionPolicy): SessionCookie {
  return {
    name: isProduction ? "__Host-castellum_session" : "castellum_session",
    secure: isProduction,
    policy,
  };
}

/** Sets the session cookie: httpOnly, SameSite=Lax, Secure in production, for the session's life. */
export function setSessionCookie(
  res: Response,
  cookie: SessionCookie,
  token: string,
  expiresAt: Date,
) {
  res.cookie(cookie.name, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: cookie.secure,
    path: "/",
    expires: expiresAt,
  });
}

export function clearSessionCookie(res: Response, cookie: SessionCookie) {
  res.clearCookie(cookie.name, {
    httpOnly: true,
    sameSite: "lax",
    secure: cookie.secure,
    path: "/",
  });
}

export function readSessionToken(req: Request, cookie: SessionCookie): string | undefined {
  return readCookie(req.headers.cookie, cookie.name);
}

/**
 * Loads the signed-in person into `res.locals.session` (and so into the pages' context). Only
 * requests that carry the cookie cost a query; a revoked, expired or disabled session is null.
 * A staff sign-in short of its second factor is never the session: it goes to
 * `res.locals.signInStep`, which only the calls and pages that finish a sign-in can read
 * (./sign-in-stage.ts), so every other path treats it as nobody by default.
 */
export function sessionMiddleware(deps: Deps, cookie: SessionCookie) {
  return async (req: Request, res: Response, next: NextFunction) => {
    res.locals.session = null;
    res.locals.signInStep = null;
    res.locals.securityLog = securityRecorderOf(deps, req);
    const token = readSessionToken(req, cookie);
    if (!token) return next();
    try {
      const session = await resolveSession(deps, token, cookie.policy);
      if (session?.role === "staff" && session.stage !== "complete") {
        const { user, sessionId, stage, expiresAt } = session;
        res.locals.signInStep = { role: "staff", user, sessionId, stage, expiresAt, token };
      } else res.locals.session = session;
      // Every staff answer is personal: no shared cache may keep it.
      if (session) res.set("Cache-Control", "private, no-store");
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** The staff access of this request: anonymous when nobody (or an owner) is signed in. */
export function staffAccessOfRequest(
  res: Response,
  adminEmailDomain: string,
): StaffAccess | "anonymous" {
  const session = res.locals.session;
  if (!session || session.role !== "staff") return "anonymous";
  return staffAccessOf(session.user, adminEmailDomain);
}

/**
 * Guards a staff API call (on the server): 401 without a staff session, 403 for
 * an account that is not an admin or not at the company domain. Nothing else is answered.
 * Each refusal is one `access.refused` entry of the security log.
 */
export function requireAdminApi(adminEmailDomain: string) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const access = staffAccessOfRequest(res, adminEmailDomain);
    if (access !== "granted") {
      const status = access === "anonymous" ? 401 : 403;
      await recordAccessRefused(req, res, status);
      if (access === "anonymous")
        return sendError(res, 401, "not_signed_in", "staff.errors.notSignedIn");
      if (access === "not_admin") return sendError(res, 403, "not_admin", "staff.errors.notAdmin");
      return sendError(res, 403, "access_denied", "staff.accessDenied.body");
    }
    res.set("Cache-Control", "private, no-store");
    next();
  };
}

/** The staff member `requireAdminApi` let through; a route without that guard is a bug. */
export function signedInAdmin(res: Response) {
  const session = res.locals.session;
  if (!session || session.role !== "staff") throw new Error("requireAdminApi must run first");
  return session.user;
}
