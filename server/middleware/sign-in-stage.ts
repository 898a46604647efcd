import type { NextFunction, Request, Response } from "express";
import type { Operation } from "#domain/api/operation.ts";
import type { SessionStage } from "#domain/auth/sessions.ts";
import * as passkeys from "#domain/auth/passkeys.contract.ts";
import * as mfa from "#domain/staff/mfa/mfa.contract.ts";
import * as auth from "#domain/staff/staff-auth.contract.ts";
import type { StaffUser } from "#domain/staff/staff-user.ts";
import { sendError } from "../api/errors.ts";
import { redactedPathOf } from "./security-log.ts";

/**
 * A staff sign-in that has passed the password but not yet its second factor (`second_factor`)
 * or, while one is required, has none yet (`enrolment`). `sessionMiddleware` keeps it apart from
 * `res.locals.session`, which only ever holds a complete session: every guard that reads the
 * session sees nobody, so a route cannot forget the stage. The few calls and pages that carry
 * the sign-in on are listed below, and only they can read it.
 */
export interface SignInStep {
  role: "staff";
  user: StaffUser;
  sessionId: string;
  stage: Exclude<SessionStage, "complete">;
  expiresAt: Date;
  /** The cookie's token, for the calls that move or end this session. */
  token: string;
}

declare global {
  namespace Express {
    interface Locals {
      /** A staff sign-in short of its second factor (null: none); read through `signInStepOf`. */
      signInStep?: SignInStep | null;
    }
  }
}

/** The calls a sign-in short of its second factor may make: the ones that finish or end it. */
export const SIGN_IN_STEP_OPERATIONS: ReadonlySet<string> = new Set([
  auth.logoutStaff.id,
  mfa.startTotpEnrolment.id,
  mfa.confirmTotpEnrolment.id,
  mfa.completeSecondFactor.id,
  passkeys.startStaffPasskeyRegistration.id,
  passkeys.addStaffPasskey.id,
  passkeys.listStaffPasskeys.id,
  passkeys.startStaffPasskeySignIn.id,
  passkeys.signInStaffWithPasskey.id,
]);

/** The pages that carry a sign-in on: they read its stage and send it to the next step. */
export const SIGN_IN_STEP_PAGES: ReadonlySet<string> = new Set(["/admin/login", "/admin/enrol"]);

/**
 * The staff-area pages open to anyone (first-admin setup, password reset, invitation): a
 * sign-in short of its second factor opens them as nobody, which is no violation.
 */
const OPEN_STAFF_PAGES: readonly RegExp[] = [
  /^\/admin\/setup$/,
  /^\/admin\/forgot-password$/,
  /^\/admin\/password-reset\/[^/]+$/,
  /^\/admin\/invitation\/[^/]+$/,
];

/** A page's path without the data request's suffix (`/admin/estates.data`) or a final slash. */
export function pagePathOf(path: string): string {
  return path.replace(/\.data$/, "").replace(/(.)\/$/, "$1") || "/";
}

/** The sign-in step of this request, for a listed call or page only (else null). */
export function signInStepOf(res: Response): SignInStep | null {
  const step = res.locals.signInStep ?? null;
  if (!step) return null;
  const operation = res.locals.operation;
  if (!operation || !SIGN_IN_STEP_OPERATIONS.has(operation.id)) return null;
  return step;
}

/** The sign-in step for a listed page (the pages' context), else null. */
export function signInStepOfPage(req: Request, res: Response): SignInStep | null {
  const step = res.locals.signInStep ?? null;
  return step && SIGN_IN_STEP_PAGES.has(pagePathOf(req.path)) ? step : null;
}

/** Whether a call needs a staff or owner session (not public, not optional). */
function needsSession(operation: Operation): boolean {
  const { security } = operation;
  return (
    security.length > 0 &&
    security.every((requirement) => Object.keys(requirement).length > 0) &&
    security.some((requirement) => "staffSession" in requirement || "ownerSession" in requirement)
  );
}

async function recordStageRefused(req: Request, res: Response, step: SignInStep, path: string) {
  const securityLog = res.locals.securityLog;
  if (!securityLog) return;
  try {
    await securityLog.record({
      type: "access.refused",
      actor: { kind: "staff", staffUserId: step.user.id, email: step.user.email },
      data: { status: 401, method: req.method, path, stage: step.stage },
    });
  } catch (error) {
    securityLog.log.error({ err: error }, "could not record a refused call in the security log");
  }
}

/**
 * The first guard of every documented call (`defineRoute`): a sign-in short of its second
 * factor that reaches a call needing a session, other than the listed ones, is refused with a
 * 401 that says to finish signing in, and the security log records it. Public calls go on as
 * for nobody.
 */
export async function signInStageGate(req: Request, res: Response, next: NextFunction) {
  const step = res.locals.signInStep;
  const operation = res.locals.operation;
  if (!step || !operation || SIGN_IN_STEP_OPERATIONS.has(operation.id)) return next();
  if (!needsSession(operation)) return next();
  await recordStageRefused(req, res, step, redactedPathOf(req, res));
  res.set("Cache-Control", "private, no-store");
  sendError(res, 401, "sign_in_incomplete", "staff.errors.signInIncomplete");
}

/**
 * Before the pages: a sign-in short of its second factor that asks for a staff or owner page
 * other than the sign-in's own and the open ones is recorded in the security log. The page then
 * sees nobody signed in and sends the person back to sign-in, which goes on from the stage.
 */
export async function signInStagePageGate(req: Request, res: Response, next: NextFunction) {
  const step = res.locals.signInStep;
  if (!step || (req.method !== "GET" && req.method !== "HEAD")) return next();
  const path = pagePathOf(req.baseUrl + req.path);
  const isStaffPage = path === "/admin" || path.startsWith("/admin/");
  if (
    isStaffPage &&
    !SIGN_IN_STEP_PAGES.has(path) &&
    !OPEN_STAFF_PAGES.some((open) => open.test(path))
  )
    await recordStageRefused(req, res, step, redactedPathOf(req, res));
  next();
}
