import type { NextFunction, Request, Response } from "express";
import { type ReplicaSet, readingFromReplicas } from "#db/replicas.ts";
import { readCookie } from "./language.ts";
import { carriesCookie } from "./response-cache.ts";

/** Set on an answer to a write: until the time it holds, this client reads the primary. */
export const FRESH_COOKIE = "castellum_fresh";

export interface ReplicaReadsOptions {
  replicas: ReplicaSet;
  /** Cookies of a session or a proof: their bearer reads the primary. */
  privateCookies: string[];
  /** How long a client that wrote reads the primary (REPLICA_PIN_SECONDS). */
  pinSeconds: number;
  /** Which reads are public (the catalogue, availability, quotes, public pages). */
  isPublicRead: (path: string) => boolean;
  /** Bumped on every catalogue change (the response cache's generation). */
  generation: () => number;
  now: () => number;
  secureCookie: boolean;
}

/**
 * Which reads may use a replica, and how far it must have replayed (decision 0038):
 *
 * - a public GET or HEAD from a visitor with no session, no proof and no credentials, who has
 *   not written in the last `pinSeconds` (the `castellum_fresh` cookie), reads a replica;
 * - it needs a replica that has replayed the primary's log past the last catalogue change this
 *   instance heard of, so a page stored in the response cache is never older than the change
 *   that emptied it; while that position is being asked for, it reads the primary;
 * - everyone else (staff, owners, a guest who just sent a form) reads the primary: what they
 *   wrote is there at once.
 */
export function replicaReads(options: ReplicaReadsOptions) {
  let seen = options.generation();
  let required = 0n;
  let asking: Promise<void> | null = null;
  const catchUp = () => {
    const generation = options.generation();
    if (generation === seen || asking) return;
    seen = generation;
    asking = options.replicas
      .primaryLsn()
      .then(
        (lsn) => {
          if (lsn > required) required = lsn;
        },
        () => {},
      )
      .finally(() => {
        asking = null;
      });
  };

  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD") {
      catchUp();
      if (asking || !options.isPublicRead(req.path) || req.headers.authorization) return next();
      const cookie = req.headers.cookie;
      if (carriesCookie(cookie, options.privateCookies)) return next();
      const pinnedUntil = Number(readCookie(cookie, FRESH_COOKIE) ?? 0);
      if (pinnedUntil > options.now()) return next();
      return readingFromReplicas({ minLsn: required }, next);
    }
    // A write: whoever made it reads the primary for a while, where it is already.
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: unknown[]) {
      const status = typeof args[0] === "number" ? args[0] : res.statusCode;
      if (status < 400)
        res.append(
          "Set-Cookie",
          `${FRESH_COOKIE}=${options.now() + options.pinSeconds * 1000}; Path=/; Max-Age=${options.pinSeconds}; HttpOnly; SameSite=Lax${options.secureCookie ? "; Secure" : ""}`,
        );
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    } as Response["writeHead"];
    next();
  };
}
