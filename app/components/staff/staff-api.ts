import type { RequestKind } from "../../../domain/requests/options.ts";
import { STAFF_COLLECTIONS } from "../../../domain/staff/collections.ts";

/** The staff API's path of each kind of request (domain/staff/collections.ts, under /api). */
export const COLLECTION_PATHS = Object.fromEntries(
  Object.entries(STAFF_COLLECTIONS).map(([kind, path]) => [kind, `/api${path}`]),
) as Record<RequestKind, string>;

export interface FieldError {
  path: string;
  message: string;
}

/** An answer of the staff API: its status and its JSON body (null when there is none). */
export interface StaffAnswer<T> {
  ok: boolean;
  status: number;
  body: T | null;
  /** The server's `{message}` (already in the user's language), if it sent one. */
  message: string | null;
  /** The server's validation issues (`errors[]` of a 400), if any. */
  errors: FieldError[];
}

/**
 * One same-origin call of the staff API with the session cookie, JSON in and out. Network
 * failures answer status 0 instead of throwing, so every caller handles one shape.
 */
export async function callStaffApi<T>(
  method: "GET" | "POST" | "PATCH" | "DELETE",
  url: string,
  options: { body?: unknown; language?: string; signal?: AbortSignal } = {},
): Promise<StaffAnswer<T>> {
  try {
    const response = await fetch(url, {
      method,
      credentials: "same-origin",
      signal: options.signal,
      headers: {
        Accept: "application/json",
        ...(options.language ? { "Accept-Language": options.language } : {}),
        ...(options.body !== undefined ? { "Content-Type": "application/json" } : {}),
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    });
    const body = (await response.json().catch(() => null)) as unknown;
    const record = (typeof body === "object" && body !== null ? body : {}) as Record<
      string,
      unknown
    >;
    return {
      ok: response.ok,
      status: response.status,
      body: body as T | null,
      message: typeof record.message === "string" && record.message ? record.message : null,
      errors: Array.isArray(record.errors) ? (record.errors as FieldError[]) : [],
    };
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    return { ok: false, status: 0, body: null, message: null, errors: [] };
  }
}

/**
 * A local path to return to after sign-in, or null. It must start with one `/` and hold no
 * backslash, whitespace or control character: browsers read `//host`, `/\host` and `/<tab>/host`
 * as another site.
 */
export function safeRedirectTarget(value: string | null | undefined): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  if (!value || !/^\/(?![/\\])[^\s\\\x00-\x1f\x7f]*$/.test(value)) return null;
  return value;
}

/** The staff area's home: the inbox. */
export const STAFF_HOME = "/admin/booking-requests";
