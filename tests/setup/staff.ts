import type { Deps } from "#domain/deps.ts";
import { createStaffAccount } from "#domain/staff/accounts.ts";
import type { PasswordCost } from "#domain/staff/passwords.ts";
import type { StaffUser } from "#domain/staff/staff-user.ts";

/** A password that passes the policy, shared by the test accounts. */
export const STAFF_PASSWORD = "tower-garden-lantern-42";

/**
 * The argon2id cost of the suites' password hashes: the least argon2 allows. The suites make and
 * sign in to hundreds of accounts, which at the standard cost spent minutes of every run hashing;
 * domain/staff/passwords.test.ts checks the standard cost itself.
 */
export const TEST_PASSWORD_COST: PasswordCost = { memoryCost: 1024, timeCost: 1 };

/** Creates an account or fails the test with the reason. */
export async function createTestStaff(
  deps: Pick<Deps, "db" | "passwordCost">,
  email: string,
  options: { isAdmin?: boolean; displayName?: string; language?: StaffUser["language"] } = {},
): Promise<StaffUser> {
  const result = await createStaffAccount(deps, { email, password: STAFF_PASSWORD, ...options });
  if (result.outcome !== "created") throw new Error(`could not create ${email}: ${result.outcome}`);
  return result.user;
}

/** Signs in through the API and returns the session cookie (`name=value`) to send back. */
export async function signIn(
  baseUrl: string,
  email: string,
  password = STAFF_PASSWORD,
): Promise<string> {
  const response = await fetch(`${baseUrl}/api/admin/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in of ${email}: ${response.status}`);
  return sessionCookieOf(response);
}

export function sessionCookieOf(response: Response): string {
  const cookie = response.headers
    .getSetCookie()
    // In production the name carries the `__Host-` prefix.
    .find((header) => /^(?:__Host-)?castellum_session=/.test(header));
  if (!cookie) throw new Error("no session cookie");
  return cookie.split(";")[0]!;
}

export interface JsonAnswer {
  status: number;
  headers: Headers;
  /** The body parsed as JSON (null when it is not JSON): read it with a schema. */
  body: unknown;
  text: string;
}

/** A call as the staff area's browser makes it: JSON, with the cookie, from the same origin. */
export async function staffCall(
  baseUrl: string,
  method: string,
  path: string,
  options: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<JsonAnswer> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(options.body !== undefined ? { "Content-Type": "application/json" } : {}),
      ...(options.cookie ? { Cookie: options.cookie } : {}),
      ...options.headers,
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: response.status, headers: response.headers, body, text };
}
