import { createHash, randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { NextFunction, Request, Response } from "express";
import { isbot } from "isbot";
import type { OutgoingHttpHeaders } from "node:http";
import type { Logger } from "pino";
import { isStorableText } from "#domain/storable-text.ts";
import { LANGUAGE_COOKIE, negotiateLanguage } from "#i18n/config.ts";
import { readCookie } from "./language.ts";
import { loggableUrl } from "./request-log.ts";
import { inlineScriptHashes } from "./security-headers.ts";

declare global {
  namespace Express {
    interface Locals {
      /** Set when the response cache answered this request (the compressor leaves it alone). */
      answeredFromCache?: boolean;
    }
  }
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Public pages: a CDN may keep them a minute and serve a stale copy for five more while it
 * fetches a new one; browsers always ask again (and get a 304 when nothing changed).
 */
export const PAGE_CACHE_CONTROL = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";
/** A page answer that sets a cookie (`?lang=`) is never kept by a shared cache. */
const PAGE_WITH_COOKIE_CACHE_CONTROL = "private, no-cache";

/**
 * Every page route of app/routes.ts, in its syntax, and whether its anonymous answer is kept:
 * the same for every visitor with the same address and language. `prefix/*` covers every route
 * under the prefix, so a new staff page is never kept without being listed; a new route outside
 * these fails response-cache-routes.test.ts until it is classified here. Pages include their
 * client-side navigation data (`/castles.data`; the home page's is `/_root.data`).
 */
export const PAGE_ROUTES: readonly { route: string; isCached: boolean }[] = [
  { route: "", isCached: true },
  { route: "castles", isCached: true },
  { route: "property/:idOrSlug", isCached: true },
  { route: "team", isCached: true },
  { route: "contact", isCached: true },
  { route: "faqs", isCached: true },
  { route: "roadmap", isCached: true },
  { route: "tokenomics", isCached: true },
  { route: "tokensale", isCached: true },
  { route: "whitepaper", isCached: true },
  // The same for every visitor: the contact address is the operator's setting.
  { route: "privacy", isCached: true },
  // The form pages hold no per-visitor data: the bot-check challenge is fetched apart.
  { route: "booking-request", isCached: true },
  { route: "booking/:idOrSlug", isCached: true },
  { route: "membership", isCached: true },
  // One guest's request, behind its secret token.
  { route: "requests/:token", isCached: false },
  // Owners and staff: signed-in areas, sign-in and setup included.
  { route: "onboard/*", isCached: false },
  { route: "admin", isCached: false },
  { route: "admin/*", isCached: false },
  // The not-found page answers 404, which is never kept anyway.
  { route: "*", isCached: false },
];

/** The entry of PAGE_ROUTES that classifies a route path of app/routes.ts, if any. */
export function pageRouteOf(route: string) {
  return PAGE_ROUTES.find(
    (entry) =>
      entry.route === route ||
      (entry.route.endsWith("/*") &&
        (route === entry.route.slice(0, -2) || route.startsWith(entry.route.slice(0, -1)))),
  );
}

/** An address matches a route: `:name` is one segment, a trailing `*` anything. */
function routePattern(route: string): RegExp {
  const source = route
    .split("/")
    .map((segment) =>
      segment === "*"
        ? ".*"
        : segment.startsWith(":")
          ? "[^/]+"
          : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("/");
  return new RegExp(`^/${source}$`);
}

const CACHED_PAGES = PAGE_ROUTES.filter((entry) => entry.isCached).map((entry) =>
  routePattern(entry.route),
);
const RESOURCE_PATHS = new Set([
  "/api/castles",
  "/api/openapi.json",
  "/sitemap.xml",
  "/robots.txt",
  "/manifest.webmanifest",
  "/whitepaper.pdf",
]);
/** One castle, and its availability (dropped with the rest when a calendar changes). */
const API_PROPERTY_PATH = /^\/api\/castles\/[^/]+(?:\/availability)?$/;

type PublicRead = "page" | "resource";

export function publicReadOf(path: string): PublicRead | null {
  if (path === "/_root.data") return "page";
  const page = path.endsWith(".data") ? path.slice(0, -".data".length) : path;
  if (CACHED_PAGES.some((pattern) => pattern.test(page))) return "page";
  if (RESOURCE_PATHS.has(path) || API_PROPERTY_PATH.test(path)) return "resource";
  return null;
}

/** Response headers that belong to one exchange, never to the stored answer. */
const PER_REQUEST_HEADERS = new Set([
  "set-cookie",
  "x-request-id",
  "date",
  "etag",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "x-cache",
  // Each answer's own policy: a page's names this request's nonce or the stored page's hashes.
  "content-security-policy",
]);

type Encoding = "br" | "gzip" | "identity";

export interface CachedResponse {
  headers: Record<string, string | string[]>;
  /** The strong validator of the identity body; compressed bodies carry it with a suffix. */
  etag: string;
  bodies: { identity: Buffer; gzip: Buffer | null; br: Buffer | null };
  /**
   * A page's inline scripts as CSP hash sources, taken from the stored bytes: the page was
   * rendered with one request's nonce, which no other answer may reuse, so its copies are
   * allowed by these hashes instead (the stored bodies stay as they are, compressed once).
   */
  scriptHashes: string[] | null;
  /**
   * Every header a hit is answered with except the request's own (its id) and the body's
   * (encoding, length, validator), as the full middleware chain set them on the first hit:
   * the fast path (cacheHitFastPath) answers later hits with them and does nothing else.
   */
  wireHeaders?: Record<string, string | string[] | number>;
  /** Bytes counted against the bound. */
  size: number;
  expiresAt: number;
}

export interface ResponseCacheOptions {
  /** The bound on stored bytes (all encodings, headers and keys); 0 turns the cache off. */
  maxBytes: number;
  /** How long an answer may be served without any change; bounds date-dependent text. */
  ttlMs?: number;
  /** Larger answers are not kept (default: an eighth of the bound). */
  maxEntryBytes?: number;
}

export interface ResponseCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  stores: number;
  evictions: number;
}

/**
 * Rendered answers kept in memory, least recently used first out when the byte bound is
 * reached. Every answer is stored once per encoding (identity, gzip, brotli) and served
 * without rendering or compressing again. `invalidate` drops everything: the catalogue is in
 * every page (the header's share image, cards, the sitemap), so a change to one estate is a
 * change to nearly every entry. Off (no lookups, no stores) until `enable`, and again after
 * `disable`: the cache only runs while this instance hears about every change.
 */
export class ResponseCache {
  readonly maxBytes: number;
  readonly maxEntryBytes: number;
  readonly ttlMs: number;
  private readonly entries = new Map<string, CachedResponse>();
  private readonly inFlight = new Map<string, Promise<CachedResponse | undefined>>();
  private bytes = 0;
  private isEnabled = false;
  private counts = { hits: 0, misses: 0, stores: 0, evictions: 0 };
  /** Raised by every invalidation: an answer rendered before it is never stored after it. */
  private generationValue = 0;

  constructor(options: ResponseCacheOptions) {
    this.maxBytes = options.maxBytes;
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.maxEntryBytes = options.maxEntryBytes ?? Math.floor(options.maxBytes / 8);
  }

  get enabled(): boolean {
    return this.isEnabled && this.maxBytes > 0;
  }

  get generation(): number {
    return this.generationValue;
  }

  /** Starts (or resumes) serving and storing, from an empty cache. */
  enable(): void {
    this.invalidate();
    this.isEnabled = true;
  }

  /** Stops serving and storing, and forgets everything. */
  disable(): void {
    this.isEnabled = false;
    this.invalidate();
  }

  /** Drops every stored answer; answers being rendered now will not be stored. */
  invalidate(): void {
    this.generationValue += 1;
    this.entries.clear();
    this.inFlight.clear();
    this.bytes = 0;
  }

  stats(): ResponseCacheStats {
    return { entries: this.entries.size, bytes: this.bytes, ...this.counts };
  }

  /** The stored answer for `key`, now the most recently used; undefined if absent or old. */
  get(key: string): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= Date.now()) {
      this.bytes -= entry.size;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry;
  }

  /** The answer to `key` that another request is rendering right now, if any. */
  pending(key: string): Promise<CachedResponse | undefined> | undefined {
    return this.inFlight.get(key);
  }

  /**
   * Makes this request the one that renders `key` while others wait for it (`pending`);
   * undefined if another request already is. Call the returned function exactly once, with
   * the stored answer or with nothing.
   */
  lead(key: string): ((entry: CachedResponse | undefined) => void) | undefined {
    if (this.inFlight.has(key)) return undefined;
    let settle: (entry: CachedResponse | undefined) => void = () => {};
    const promise = new Promise<CachedResponse | undefined>((resolve) => {
      settle = resolve;
    });
    this.inFlight.set(key, promise);
    return (entry) => {
      if (this.inFlight.get(key) === promise) this.inFlight.delete(key);
      settle(entry);
    };
  }

  /**
   * Compresses and stores an answer rendered since `generation`, unless the cache was
   * invalidated meanwhile (the answer may hold data from before the change).
   */
  async store(
    key: string,
    generation: number,
    headers: CachedResponse["headers"],
    identity: Buffer,
  ): Promise<CachedResponse | undefined> {
    if (!this.enabled || generation !== this.generationValue) return undefined;
    const entry = await this.compress(headers, identity);
    if (!this.enabled || generation !== this.generationValue) return undefined;
    if (entry.size > this.maxEntryBytes) return undefined;
    this.remove(key);
    this.entries.set(key, entry);
    this.bytes += entry.size;
    this.counts.stores += 1;
    for (const [oldKey, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldKey, old);
      this.counts.evictions += 1;
    }
    return entry;
  }

  /** Marks a request that rendered its answer itself (for the statistics). */
  countMiss(): void {
    this.counts.misses += 1;
  }

  countHit(): void {
    this.counts.hits += 1;
  }

  private remove(key: string, entry = this.entries.get(key)): void {
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
  }

  private async compress(
    headers: CachedResponse["headers"],
    identity: Buffer,
  ): Promise<CachedResponse> {
    const [gzipped, brotlied] = await Promise.all([
      gzipAsync(identity, { level: 9 }),
      // Quality 9 is within a few per cent of 11 at a sixth of the time (~27 ms for 120 KB).
      brotli(identity, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 9,
          [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        },
      }),
    ]);
    // A tiny body grows when compressed: then that encoding is answered as identity.
    const gz = gzipped.length < identity.length ? gzipped : null;
    const br = brotlied.length < identity.length ? brotlied : null;
    const isPage = /^text\/html\b/i.test(String(headers["content-type"] ?? ""));
    const scriptHashes = isPage ? inlineScriptHashes(identity.toString("utf8")) : null;
    const headerBytes = JSON.stringify(headers).length + JSON.stringify(scriptHashes).length;
    return {
      headers,
      etag: etagOf(identity),
      bodies: { identity, gzip: gz, br },
      scriptHashes,
      size: identity.length + (gz?.length ?? 0) + (br?.length ?? 0) + headerBytes + 256,
      expiresAt: Date.now() + this.ttlMs,
    };
  }
}

/** Express's own strong ETag of a body, so an API answer keeps its ETag once it is cached. */
function etagOf(body: Buffer): string {
  const hash = createHash("sha1").update(body).digest("base64").slice(0, 27);
  return `"${body.length.toString(16)}-${hash}"`;
}

/** A strong validator differs per content coding (RFC 9110 8.8.3): `"…-br"`, `"…-gzip"`. */
function etagFor(entry: CachedResponse, encoding: Encoding): string {
  return encoding === "identity" ? entry.etag : `${entry.etag.slice(0, -1)}-${encoding}"`;
}

/** If-None-Match names this answer in any of its encodings (weak comparison, RFC 9110 13.1.2). */
function matchesIfNoneMatch(header: string | undefined, entry: CachedResponse): boolean {
  if (!header) return false;
  const ours = new Set<string>([entry.etag, etagFor(entry, "gzip"), etagFor(entry, "br")]);
  return header
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || ours.has(tag));
}

/** The client's preferred encoding among ours (ties: brotli, then gzip, then none). */
export function negotiateEncoding(header: string | undefined): Encoding {
  if (!header) return "identity";
  const q = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const star = q.get("*");
  const br = q.get("br") ?? star ?? 0;
  const gz = q.get("gzip") ?? q.get("x-gzip") ?? star ?? 0;
  // Identity is acceptable unless refused, but preferred only when the client says so.
  const identity = q.get("identity") ?? 0.001;
  if (br > 0 && br >= gz && br >= identity) return "br";
  if (gz > 0 && gz >= identity) return "gzip";
  return "identity";
}

export interface ResponseCacheMiddlewareOptions {
  /** Cookies that mark a personal request (sessions, the owner's proof). */
  privateCookies: string[];
  /** How long a request waits for the same answer that another request is rendering. */
  waitMs?: number;
}

/**
 * Answers anonymous GETs of public reads from the cache, and stores the answers it lets
 * through. Mount it after the language is settled (the key includes it) and before anything
 * costly. Never kept: requests carrying a session or owner cookie, answers that set a cookie
 * of their own, anything but 200, `private`/`no-store` answers, and every path outside the
 * public reads. The language cookie that `?lang=` sets belongs to the request, not to the
 * answer: it is set on every such request, cached or not, and never stored.
 */
export function responseCacheMiddleware(
  cache: ResponseCache,
  options: ResponseCacheMiddlewareOptions,
) {
  const waitMs = options.waitMs ?? 10_000;
  return async (req: Request, res: Response, next: NextFunction) => {
    if (!cache.enabled || (req.method !== "GET" && req.method !== "HEAD")) return next();
    const kind = publicReadOf(req.path);
    if (!kind) return next();
    if (req.headers.authorization) return next();
    if (carriesCookie(req.headers.cookie, options.privateCookies)) return next();

    const key = cacheKeyOf(req, res.locals.language);
    res.vary("Accept-Encoding");
    let entry = cache.get(key);
    if (!entry) {
      const pending = cache.pending(key);
      if (pending) entry = await waitFor(pending, waitMs);
    }
    if (entry) {
      cache.countHit();
      return sendCached(req, res, entry, kind);
    }
    cache.countMiss();
    res.setHeader("X-Cache", "MISS");
    if (req.method === "GET") captureAnswer(cache, key, res, kind);
    next();
  };
}

/**
 * Read-your-writes on this instance: a successful write through these routes drops the cache
 * before its answer leaves (the transaction has committed by then), so the writer's next page
 * is fresh at once. The NOTIFY reaches every instance, this one included, a few milliseconds
 * later, which is the 1-second promise but not soon enough for the writer's own next request.
 */
export function invalidateOnWrite(cache: ResponseCache) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: unknown[]) {
      const status = typeof args[0] === "number" ? args[0] : res.statusCode;
      if (status < 400) cache.invalidate();
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    } as Response["writeHead"];
    next();
  };
}

/** Whether any of `names` is among the request's cookies (whatever its value, even malformed). */
export function carriesCookie(header: string | undefined, names: string[]): boolean {
  if (!header) return false;
  return header.split(";").some((part) => names.includes(part.split("=")[0]!.trim()));
}

/** Path, sorted query, language and whether a crawler asks (it gets the page in one piece). */
function cacheKeyOf(req: Request, language: string): string {
  const query = req.originalUrl.indexOf("?");
  const params = new URLSearchParams(query >= 0 ? req.originalUrl.slice(query + 1) : "");
  return keyOf(req.path, params, language, req.headers["user-agent"]);
}

function keyOf(
  path: string,
  params: URLSearchParams,
  language: string,
  userAgent: string | undefined,
): string {
  params.sort();
  const crawler = isbot(userAgent ?? "") ? "bot" : "browser";
  return `${path}?${params.toString()}|${language}|${crawler}`;
}

function waitFor<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function pageCacheControl(res: Response): string {
  return res.getHeader("set-cookie") === undefined
    ? PAGE_CACHE_CONTROL
    : PAGE_WITH_COOKIE_CACHE_CONTROL;
}

function sendCached(req: Request, res: Response, entry: CachedResponse, kind: PublicRead) {
  res.locals.answeredFromCache = true;
  // The security headers' policy names these hashes instead of this request's nonce.
  if (entry.scriptHashes) res.locals.cspScriptHashes = entry.scriptHashes;
  for (const [name, value] of Object.entries(entry.headers)) res.setHeader(name, value);
  if (kind === "page" && entry.headers["cache-control"] === undefined)
    res.setHeader("Cache-Control", pageCacheControl(res));
  res.vary("Accept-Encoding");
  const wanted = negotiateEncoding(req.headers["accept-encoding"]);
  const encoding: Encoding = wanted !== "identity" && entry.bodies[wanted] ? wanted : "identity";
  res.setHeader("ETag", etagFor(entry, encoding));
  res.setHeader("X-Cache", "HIT");
  if (matchesIfNoneMatch(req.headers["if-none-match"], entry)) {
    res.removeHeader("Content-Type");
    res.status(304).end();
    return;
  }
  const body = entry.bodies[encoding] ?? entry.bodies.identity;
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.status(200);
  if (req.method === "HEAD") res.end();
  else res.end(body);
  // The chain has set all it sets (the security policy at writeHead): later hits reuse it.
  if (!entry.wireHeaders && res.getHeader("set-cookie") === undefined)
    entry.wireHeaders = wireHeadersOf(res.getHeaders());
}

/** Headers that belong to one request or one encoding of the body, set again on each hit. */
const PER_HIT_HEADERS = new Set([
  "x-request-id",
  "etag",
  "content-encoding",
  "content-length",
  "x-cache",
  "date",
  "connection",
  "keep-alive",
  "transfer-encoding",
]);

function wireHeadersOf(headers: OutgoingHttpHeaders): Record<string, string | string[] | number> {
  const kept: Record<string, string | string[] | number> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined && !PER_HIT_HEADERS.has(name)) kept[name] = value;
  return kept;
}

export interface CacheHitFastPathOptions {
  privateCookies: string[];
  /** Counts a hit in the request metrics (the ops timing middleware does not see it). */
  observe?: (method: string, path: string, status: number, seconds: number) => void;
  /** Each hit at debug level: at info, a line per hit would cost more than the answer. */
  log?: Pick<Logger, "debug" | "isLevelEnabled">;
  /** While true (the instance drains), answers close their connection, as the chain's do. */
  closing?: () => boolean;
}

/**
 * A stored answer's later hits, answered before anything else runs: no router, no header
 * building, no log line at info. Only what the slow path would answer alike: a GET or HEAD of a
 * cached address, without credentials or a session, in the language the request settles
 * without setting a cookie (`?lang=` on a page sets one: the full chain answers it), with a
 * storable query, whose entry has served one hit through the full chain (its headers). Anything
 * else, and every miss, goes on to the chain, which answers exactly as without this.
 */
export function cacheHitFastPath(cache: ResponseCache, options: CacheHitFastPathOptions) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!cache.enabled || (req.method !== "GET" && req.method !== "HEAD")) return next();
    const started = options.observe ? process.hrtime.bigint() : 0n;
    const url = req.url;
    const at = url.indexOf("?");
    const path = at < 0 ? url : url.slice(0, at);
    const kind = publicReadOf(path);
    if (!kind) return next();
    const headers = req.headers;
    if (headers.authorization) return next();
    if (carriesCookie(headers.cookie, options.privateCookies)) return next();
    const params = new URLSearchParams(at < 0 ? "" : url.slice(at + 1));
    for (const [key, value] of params)
      if (!isStorableText(key) || !isStorableText(value)) return next();
    // As the chain reads it (node's querystring): a repeated `lang` is no language.
    const langs = params.getAll("lang");
    const lang = langs.length === 1 ? langs[0] : undefined;
    const { language, fromQuery } = negotiateLanguage({
      query: lang,
      cookie: readCookie(headers.cookie, LANGUAGE_COOKIE),
      acceptLanguage: headers["accept-language"],
    });
    if (fromQuery && kind === "page") return next();
    const entry = cache.get(keyOf(path, params, language, headers["user-agent"]));
    if (!entry?.wireHeaders) return next();

    cache.countHit();
    const incoming = headers["x-request-id"];
    const requestId =
      typeof incoming === "string" && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    const wanted = negotiateEncoding(headers["accept-encoding"]);
    const encoding: Encoding = wanted !== "identity" && entry.bodies[wanted] ? wanted : "identity";
    const out: OutgoingHttpHeaders = {
      ...entry.wireHeaders,
      "x-request-id": requestId,
      etag: etagFor(entry, encoding),
      "x-cache": "HIT",
    };
    if (options.closing?.()) out.connection = "close";
    let status = 200;
    let body: Buffer | null = null;
    if (matchesIfNoneMatch(headers["if-none-match"], entry)) {
      status = 304;
      // As the chain answers a 304: no body's type, no new policy for the kept copy.
      delete out["content-type"];
      delete out["content-security-policy"];
    } else {
      body = entry.bodies[encoding] ?? entry.bodies.identity;
      if (encoding !== "identity") out["content-encoding"] = encoding;
      out["content-length"] = body.length;
    }
    res.writeHead(status, out);
    res.end(req.method === "HEAD" ? undefined : body);
    if (options.observe)
      options.observe(req.method, path, status, Number(process.hrtime.bigint() - started) / 1e9);
    if (options.log?.isLevelEnabled("debug"))
      options.log.debug(
        { requestId, method: req.method, url: loggableUrl(url), status, cache: "hit" },
        "request",
      );
  };
}

type WriteArgs = [chunk: unknown, encoding?: unknown, callback?: unknown];

/**
 * Lets the answer go out as it is rendered (streamed pages keep their early bytes) and keeps a
 * copy: the bytes the app writes, before the process's compressor sees them. Whether the copy
 * may be stored is settled when the headers are: a 200, no cookie beyond those set before this
 * middleware ran, nothing `private` or `no-store`, not already encoded.
 */
function captureAnswer(cache: ResponseCache, key: string, res: Response, kind: PublicRead) {
  const generation = cache.generation;
  // Requests for the same answer wait for this one rather than render it again.
  const settle = cache.lead(key) ?? (() => {});
  let settled = false;
  /** Once: at the app's `end` (store the copy if it may be), or when the exchange closes first. */
  const finish = (store: boolean) => {
    if (settled) return;
    settled = true;
    if (!store) return settle(undefined);
    cache
      .store(key, generation, headers, Buffer.concat(chunks, bytes))
      .then(settle, () => settle(undefined));
  };
  res.once("close", () => finish(false));
  const cookiesBefore = JSON.stringify(res.getHeader("set-cookie") ?? null);
  const chunks: Buffer[] = [];
  let bytes = 0;
  let decided = false;
  let storable = false;
  let headers: CachedResponse["headers"] = {};

  const decide = () => {
    if (decided) return;
    decided = true;
    if (res.headersSent || res.statusCode !== 200) return;
    if (JSON.stringify(res.getHeader("set-cookie") ?? null) !== cookiesBefore) return;
    const encoding = String(res.getHeader("content-encoding") ?? "identity");
    if (encoding !== "identity") return;
    const own = res.getHeader("cache-control");
    if (own !== undefined && /\b(?:private|no-store)\b/i.test(String(own))) return;
    // A page that says nothing gets the page policy, chosen again for each request.
    if (kind === "page" && own === undefined) res.setHeader("Cache-Control", pageCacheControl(res));
    headers = storedHeadersOf(res, { withCacheControl: own !== undefined });
    storable = true;
  };
  const collect = ([chunk, encoding]: WriteArgs) => {
    decide();
    if (!storable || chunk === undefined || chunk === null || typeof chunk === "function") return;
    const buffer =
      typeof chunk === "string"
        ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
        : Buffer.from(chunk as Uint8Array);
    bytes += buffer.length;
    if (bytes > cache.maxEntryBytes) {
      storable = false;
      chunks.length = 0;
      return;
    }
    chunks.push(buffer);
  };

  const writeHead = res.writeHead;
  const write = res.write;
  const end = res.end;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    // Headers handed to writeHead itself are not visible here: such an answer is not kept.
    if (args.some((arg) => typeof arg === "object" && arg !== null)) decided = true;
    decide();
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as Response["writeHead"];
  res.write = function (this: Response, ...args: WriteArgs) {
    collect(args);
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as Response["write"];
  res.end = function (this: Response, ...args: WriteArgs) {
    collect(args);
    finish(storable);
    storable = false;
    return (end as (...a: unknown[]) => Response).apply(this, args);
  } as Response["end"];
}

/** The answer's own headers (Cache-Control only if the route chose it). */
function storedHeadersOf(
  res: Response,
  options: { withCacheControl: boolean },
): CachedResponse["headers"] {
  const headers: CachedResponse["headers"] = {};
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value === undefined || PER_REQUEST_HEADERS.has(name)) continue;
    if (name === "cache-control" && !options.withCacheControl) continue;
    headers[name] = typeof value === "number" ? String(value) : value;
  }
  return headers;
}
