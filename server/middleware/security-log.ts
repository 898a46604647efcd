import type { Request, Response } from "express";
import type { Deps } from "#domain/deps.ts";
import {
  recordSecurityEvent,
  type SecurityActor,
  type SecurityClient,
  type SecurityEvent,
} from "#domain/security/security-log.ts";

declare global {
  namespace Express {
    interface Locals {
      /**
       * Appends an entry to the security log with this request's client (set with the session
       * by `sessionMiddleware`, so a guard can record a refusal without its own database handle).
       */
      securityLog?: SecurityRecorder;
    }
  }
}

/** The client of a request as the log keeps it: the address after the trusted proxies. */
export function securityClientOf(req: Request): SecurityClient {
  return { ip: req.ip, userAgent: req.get("user-agent") };
}

/** Who is signed in on this request, as the log names them (nobody: anonymous). */
export function securityActorOf(res: Response): SecurityActor {
  const session = res.locals.session;
  if (!session) return { kind: "anonymous" };
  if (session.role === "owner") return { kind: "owner", email: session.ownerEmail };
  return { kind: "staff", staffUserId: session.user.id, email: session.user.email };
}

export interface SecurityRecorder {
  record(event: Omit<SecurityEvent, "client">): Promise<void>;
  log: Deps["log"];
}

/** The recorder `sessionMiddleware` puts into `res.locals` for this request. */
export function securityRecorderOf(deps: Deps, req: Request): SecurityRecorder {
  return {
    record: (event) => recordSecurityEvent(deps.db, { ...event, client: securityClientOf(req) }),
    log: deps.log,
  };
}

/** A path segment that may be a secret: long, and letters, digits, `-` or `_` only. */
const TOKEN_LIKE = /^[A-Za-z0-9_-]{20,}(\.[a-z]+)?$/;

/**
 * The path of a refused call without secrets: the documented route pattern when the call
 * reached one (`/api/admin/webhooks/{id}`), else the path without its query and with every
 * token-like segment replaced.
 */
export function redactedPathOf(req: Request, res: Response): string {
  const pattern = res.locals.operation?.path;
  if (pattern) return pattern;
  return req.originalUrl
    .split("?")[0]!
    .split("/")
    .map((segment) => (TOKEN_LIKE.test(segment) ? "{redacted}" : segment))
    .join("/")
    .slice(0, 300);
}

/**
 * Records that a staff or owner call was refused (401 or 403), once per call: the guards call
 * this just before they answer. A failure to record is logged, never turned into a 500 (the
 * refusal stands either way).
 */
export async function recordAccessRefused(
  req: Request,
  res: Response,
  status: 401 | 403,
): Promise<void> {
  const securityLog = res.locals.securityLog;
  if (!securityLog) return;
  try {
    await securityLog.record({
      type: "access.refused",
      actor: securityActorOf(res),
      data: { status, method: req.method, path: redactedPathOf(req, res) },
    });
  } catch (error) {
    securityLog.log.error({ err: error }, "could not record a refused call in the security log");
  }
}
