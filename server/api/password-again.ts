import type { Request, Response } from "express";
import type { Deps } from "#domain/deps.ts";
import type { LoginLimits } from "#domain/staff/login.ts";
import { checkPasswordAgain, type PasswordAgainAction } from "#domain/staff/password-again.ts";
import type { StaffUser } from "#domain/staff/staff-user.ts";
import { refuse, type Refusal } from "./define-route.ts";

/**
 * Asks a signed-in person's password again (domain/staff/password-again.ts): null when right,
 * else the refusal to answer. `wrong` is how the call says the password is wrong (its field).
 */
export async function passwordAgainRefusal<W extends number>(
  deps: Deps,
  limits: LoginLimits,
  req: Request,
  res: Response,
  input: { user: Pick<StaffUser, "id" | "email">; password: string; action: PasswordAgainAction },
  wrong: () => Refusal<W>,
): Promise<Refusal<429 | 503 | W> | null> {
  const check = await checkPasswordAgain(deps, limits, {
    ...input,
    client: { ip: req.ip, userAgent: req.get("user-agent") },
  });
  if (check === "right") return null;
  if (check === "wrong") return wrong();
  if (check === "unavailable") return refuse(503, "limiter_unavailable", "staff.login.unavailable");
  res.set("Retry-After", String(check.retryAfterSeconds));
  return refuse(429, "too_many_attempts", "staff.login.tooManyAttempts", {
    minutes: Math.ceil(check.retryAfterSeconds / 60),
  });
}
