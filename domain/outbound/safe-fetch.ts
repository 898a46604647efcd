import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { type ClientRequest, type IncomingMessage, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction, type Socket } from "node:net";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import ipaddr from "ipaddr.js";
import { MAX_URL_LENGTH, OUTBOUND_ERROR_CODES, type OutboundErrorCode } from "./outbound-errors.ts";

/**
 * Outbound HTTP(S) GETs of addresses a person typed (calendar feeds now, webhooks later).
 * A typed address must not reach inside our own network (SSRF): the name is resolved and
 * every address is checked, through the request's own `lookup`, so the check applies to the
 * address actually connected to (no gap for a name that resolves differently a moment later);
 * the socket's remote address is checked once more on connect, and IP literals (which Node
 * connects to without a lookup) before the request. Only public unicast addresses pass, unless
 * `allowPrivateNetworks` (OUTBOUND_ALLOW_PRIVATE_NETWORKS=true, for tests and local use).
 * Each fetch has a total timeout, a size cap that stops reading as soon as it is passed, and
 * follows at most a few redirects, each checked again.
 */

export { MAX_URL_LENGTH, OUTBOUND_ERROR_CODES, type OutboundErrorCode };

export class OutboundFetchError extends Error {
  readonly code: OutboundErrorCode;
  readonly detail: string;
  constructor(code: OutboundErrorCode, detail: string) {
    super(`${code}: ${detail}`);
    this.name = "OutboundFetchError";
    this.code = code;
    this.detail = detail;
  }
}

export interface OutboundPolicy {
  /** Let loopback, private, link-local... addresses through (tests, local use). */
  allowPrivateNetworks: boolean;
  /**
   * Addresses let through though not public (a known service on the private network; the
   * tests' own servers), exactly as written (`127.0.0.1`, `::1`).
   */
  allowedAddresses?: readonly string[];
  /** The whole fetch, redirects included, in ms. */
  timeoutMs?: number;
  /** The largest body read, in bytes (after decompression). */
  maxBytes?: number;
  maxRedirects?: number;
}

export const OUTBOUND_DEFAULTS = {
  timeoutMs: 10_000,
  maxBytes: 2 * 1024 * 1024,
  maxRedirects: 3,
} as const;

/** What is sent: a GET (feeds) by default, or a POST with a body (webhooks). */
export interface OutboundRequest {
  method?: "GET" | "POST";
  body?: string;
}

export interface OutboundResponse {
  /** The address that answered, after redirects. */
  url: string;
  status: number;
  contentType: string | null;
  body: Buffer;
}

/**
 * The IPv4 blocks of IANA's special-purpose registry (and multicast, and the reserved 240/4)
 * that a typed URL may not reach: none of them is an ordinary host on the internet.
 */
const NOT_PUBLIC_IPV4 = [
  "0.0.0.0/8",
  "10.0.0.0/8",
  "100.64.0.0/10",
  "127.0.0.0/8",
  "169.254.0.0/16",
  "172.16.0.0/12",
  "192.0.0.0/24",
  "192.0.2.0/24",
  "192.31.196.0/24",
  "192.52.193.0/24",
  "192.88.99.0/24",
  "192.168.0.0/16",
  "192.175.48.0/24",
  "198.18.0.0/15",
  "198.51.100.0/24",
  "203.0.113.0/24",
  "224.0.0.0/4",
  "240.0.0.0/4",
].map((cidr) => ipaddr.IPv4.parseCIDR(cidr));

/** Global unicast IPv6: every other block (::/96, NAT64, link-local, ...) is not public. */
const GLOBAL_IPV6 = ipaddr.IPv6.parseCIDR("2000::/3");
/** The special-purpose blocks inside it: IETF protocols (Teredo...), documentation, 6to4, SRv6. */
const NOT_PUBLIC_IPV6 = ["2001::/23", "2001:db8::/32", "2002::/16", "3fff::/20", "5f00::/16"].map(
  (cidr) => ipaddr.IPv6.parseCIDR(cidr),
);

/**
 * Whether an address is one a typed URL may reach: public unicast only. An IPv4-mapped IPv6
 * address is judged as its IPv4 address. Everything else is refused unless it is outside every
 * special-purpose block: loopback, private, link-local, unique-local, unspecified, multicast,
 * carrier-grade NAT, documentation, benchmarking, 6to4, NAT64, Teredo and the IPv4-compatible
 * `::a.b.c.d` (which some systems route to the IPv4 address).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === "ipv4") {
    const v4 = parsed as ipaddr.IPv4;
    return v4.range() === "unicast" && !NOT_PUBLIC_IPV4.some((block) => v4.match(block));
  }
  const v6 = parsed as ipaddr.IPv6;
  return v6.match(GLOBAL_IPV6) && !NOT_PUBLIC_IPV6.some((block) => v6.match(block));
}

/** Reads and checks a typed address: http or https, with a host, not too long. */
export function parseOutboundUrl(text: string): URL {
  if (text.length > MAX_URL_LENGTH)
    throw new OutboundFetchError("invalid_url", `longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OutboundFetchError("invalid_url", "not an absolute address");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new OutboundFetchError("invalid_url", `${url.protocol} is not http or https`);
  if (!url.hostname) throw new OutboundFetchError("invalid_url", "no host");
  return url;
}

/** A URL's host as an address literal (IPv6 without its brackets), or null for a name. */
function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return isIP(host) ? host : null;
}

/** Whether `policy` lets a connection to `address` through. */
function mayConnect(policy: OutboundPolicy, address: string): boolean {
  return (
    policy.allowPrivateNetworks ||
    isPublicAddress(address) ||
    (policy.allowedAddresses?.includes(address) ?? false)
  );
}

function blocked(address: string): OutboundFetchError {
  return new OutboundFetchError("blocked_address", `${address} is not a public address`);
}

/**
 * A `lookup` for http(s).request that resolves the name and refuses it when any address it
 * resolves to is not public (a name that resolves to a public and a private address is
 * refused: which one the connection would pick is not ours to know).
 */
function checkingLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        const reason = new OutboundFetchError(
          "unresolvable",
          `${hostname}: ${error.code ?? error.message}`,
        );
        return callback(reason as NodeJS.ErrnoException, "", 4);
      }
      const refused = addresses.find((entry) => !mayConnect(policy, entry.address));
      if (refused) return callback(blocked(refused.address) as NodeJS.ErrnoException, "", 4);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first)
        return callback(
          new OutboundFetchError(
            "unresolvable",
            `${hostname}: no address`,
          ) as NodeJS.ErrnoException,
          "",
          4,
        );
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Resolves a typed address's host and checks it as a fetch would, without fetching: for a
 * form that stores an address (a feed, a webhook), so a private one is refused when it is
 * added, not only when it is used.
 */
export async function checkOutboundUrl(text: string, policy: OutboundPolicy): Promise<URL> {
  const url = parseOutboundUrl(text);
  const literal = literalAddress(url);
  if (literal) {
    if (!mayConnect(policy, literal)) throw blocked(literal);
    return url;
  }
  await new Promise<void>((resolve, reject) => {
    checkingLookup(policy)(url.hostname, { all: true }, (error) =>
      error ? reject(error) : resolve(),
    );
  });
  return url;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs (or POSTs `request.body` to) a typed address under `policy`: resolves and checks every
 * address it connects to, follows at most `maxRedirects` redirects (each checked again; with
 * `maxRedirects: 0` none, and a redirect is a `too_many_redirects` failure), stops at
 * `timeoutMs` for the whole fetch and at `maxBytes` of body. Answers a 2xx response; anything
 * else is an `OutboundFetchError` with a code and a short English detail.
 */
export async function safeFetch(
  text: string,
  policy: OutboundPolicy,
  headers: Record<string, string> = {},
  request: OutboundRequest = {},
): Promise<OutboundResponse> {
  const timeoutMs = policy.timeoutMs ?? OUTBOUND_DEFAULTS.timeoutMs;
  const maxBytes = policy.maxBytes ?? OUTBOUND_DEFAULTS.maxBytes;
  const maxRedirects = policy.maxRedirects ?? OUTBOUND_DEFAULTS.maxRedirects;
  const deadline = AbortSignal.timeout(timeoutMs);
  let url = parseOutboundUrl(text);
  for (let redirects = 0; ; redirects += 1) {
    const answer = await getOnce(url, policy, headers, request, deadline, timeoutMs, maxBytes);
    if (answer.kind === "response") return answer.response;
    if (redirects >= maxRedirects)
      throw new OutboundFetchError(
        "too_many_redirects",
        maxRedirects === 0
          ? `a redirect (to ${answer.location.slice(0, 200)}), and redirects are not followed`
          : `more than ${maxRedirects} redirects`,
      );
    try {
      url = parseOutboundUrl(new URL(answer.location, url).toString());
    } catch (error) {
      if (error instanceof OutboundFetchError) throw error;
      throw new OutboundFetchError("invalid_url", "a redirect to an unreadable address");
    }
  }
}

type Once =
  { kind: "response"; response: OutboundResponse } | { kind: "redirect"; location: string };

function getOnce(
  url: URL,
  policy: OutboundPolicy,
  headers: Record<string, string>,
  outgoing: OutboundRequest,
  deadline: AbortSignal,
  timeoutMs: number,
  maxBytes: number,
): Promise<Once> {
  return new Promise<Once>((resolve, reject) => {
    const literal = literalAddress(url);
    if (literal && !mayConnect(policy, literal)) return reject(blocked(literal));
    if (deadline.aborted)
      return reject(new OutboundFetchError("timeout", `no answer within ${timeoutMs} ms`));
    let settled = false;
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    const request: ClientRequest = send(url, {
      method: outgoing.method ?? "GET",
      lookup: checkingLookup(policy),
      // One connection per fetch: a pooled socket would skip the lookup, and so the check.
      agent: false,
      headers: { "Accept-Encoding": "gzip, deflate, br", ...headers },
    });
    const fail = (error: OutboundFetchError) => {
      if (settled) return;
      settled = true;
      deadline.removeEventListener("abort", onTimeout);
      request.destroy();
      reject(error);
    };
    const onTimeout = () =>
      fail(new OutboundFetchError("timeout", `no complete answer within ${timeoutMs} ms`));
    deadline.addEventListener("abort", onTimeout, { once: true });
    request.on("socket", (socket: Socket) => {
      // Once more on the address actually connected to, whatever resolved it.
      socket.once("connect", () => {
        const address = socket.remoteAddress;
        if (!address || !mayConnect(policy, address.replace(/^::ffff:(?=\d+\.)/, "")))
          fail(blocked(address ?? "an unknown address"));
      });
    });
    request.on("error", (error: Error) => {
      fail(
        error instanceof OutboundFetchError
          ? error
          : new OutboundFetchError(
              "network",
              `${url.host}: ${(error as NodeJS.ErrnoException).code ?? error.message}`,
            ),
      );
    });
    request.on("response", (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECTS.has(status) && location) {
        response.resume();
        settled = true;
        deadline.removeEventListener("abort", onTimeout);
        request.destroy();
        return resolve({ kind: "redirect", location });
      }
      if (status < 200 || status > 299) {
        response.resume();
        return fail(new OutboundFetchError("http_status", `the server answered ${status}`));
      }
      const declared = Number(response.headers["content-length"]);
      const encoding = (response.headers["content-encoding"] ?? "identity").toLowerCase();
      if (encoding === "identity" && Number.isFinite(declared) && declared > maxBytes)
        return fail(tooLarge(maxBytes));
      const decoder =
        encoding === "gzip" || encoding === "x-gzip"
          ? createGunzip()
          : encoding === "deflate"
            ? createInflate()
            : encoding === "br"
              ? createBrotliDecompress()
              : null;
      if (encoding !== "identity" && !decoder)
        return fail(new OutboundFetchError("network", `unknown content encoding ${encoding}`));
      const body = decoder ? response.pipe(decoder) : response;
      decoder?.on("error", () =>
        fail(new OutboundFetchError("network", `a malformed ${encoding} body`)),
      );
      const chunks: Buffer[] = [];
      let size = 0;
      body.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          decoder?.destroy();
          return fail(tooLarge(maxBytes));
        }
        chunks.push(chunk);
      });
      body.on("end", () => {
        if (settled) return;
        settled = true;
        deadline.removeEventListener("abort", onTimeout);
        const type = response.headers["content-type"];
        resolve({
          kind: "response",
          response: {
            url: url.toString(),
            status,
            contentType: type ?? null,
            body: Buffer.concat(chunks),
          },
        });
      });
      response.on("close", () => {
        if (!response.complete)
          fail(new OutboundFetchError("network", "the connection closed mid-answer"));
      });
    });
    request.end(outgoing.body);
  });
}

function tooLarge(maxBytes: number): OutboundFetchError {
  return new OutboundFetchError("too_large", `larger than ${Math.round(maxBytes / 1024)} KB`);
}
