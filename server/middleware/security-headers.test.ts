import { createHash } from "node:crypto";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachBackend } from "#tests/setup/database.ts";
import { listenOnFreePort } from "#tests/setup/http.ts";
import { servePages } from "#tests/setup/pages.ts";
import { type RawAnswer, rawRequest } from "#tests/setup/raw-http.ts";
import { inlineScriptHashes, securityHeaders } from "./security-headers.ts";

/** The directives of a policy by name, each with its sources. */
function directivesOf(policy: string | undefined): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of (policy ?? "").split(";")) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

function policyOf(answer: RawAnswer): string {
  const policy = answer.headers["content-security-policy"];
  expect(typeof policy, "one Content-Security-Policy header").toBe("string");
  return policy as string;
}

interface InlineScript {
  nonce: string | null;
  text: string;
}

/** The inline scripts a browser would run: no src, and not a data block such as JSON-LD. */
function runnableInlineScripts(html: string): InlineScript[] {
  const scripts: InlineScript[] = [];
  let at = 0;
  for (;;) {
    const open = html.indexOf("<script", at);
    if (open < 0) return scripts;
    const tagEnd = html.indexOf(">", open);
    const close = html.indexOf("</script>", tagEnd);
    const tag = html.slice(open, tagEnd + 1);
    at = close + "</script>".length;
    if (/\ssrc=/.test(tag)) continue;
    const type = / type="([^"]*)"/.exec(tag)?.[1] ?? "";
    if (type !== "" && type !== "module") continue;
    scripts.push({
      nonce: / nonce="([^"]*)"/.exec(tag)?.[1] ?? null,
      text: html.slice(tagEnd + 1, close),
    });
  }
}

/**
 * Whether the policy lets the browser run each of the page's inline scripts, as CSP 3 decides
 * it: a nonce source equal to the script's nonce, or a hash source of its text.
 */
function blockedScripts(answer: RawAnswer): InlineScript[] {
  const scriptSrc = directivesOf(policyOf(answer)).get("script-src") ?? [];
  return runnableInlineScripts(answer.text).filter((script) => {
    const hash = `'sha256-${createHash("sha256").update(script.text).digest("base64")}'`;
    const byNonce = script.nonce !== null && scriptSrc.includes(`'nonce-${script.nonce}'`);
    return !byNonce && !scriptSrc.includes(hash);
  });
}

function nonceOf(policy: string): string | undefined {
  return /'nonce-([^']+)'/.exec(policy)?.[1];
}

const STRICT = "default-src 'none'; frame-ancestors 'none'";

function expectCommonHeaders(answer: RawAnswer) {
  expect(answer.headers["x-content-type-options"]).toBe("nosniff");
  expect(answer.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(answer.headers["x-frame-options"]).toBe("DENY");
  expect(answer.headers["permissions-policy"]).toContain("camera=()");
  expect(answer.headers["cross-origin-opener-policy"]).toBe("same-origin");
}

/** A page's policy: nonce or hashes for scripts, never 'unsafe-inline' for them. */
function expectPagePolicy(answer: RawAnswer) {
  const directives = directivesOf(policyOf(answer));
  const scriptSrc = directives.get("script-src") ?? [];
  expect(scriptSrc).toContain("'self'");
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  expect(scriptSrc).not.toContain("'unsafe-eval'");
  expect(directives.get("object-src")).toEqual(["'none'"]);
  expect(directives.get("frame-ancestors")).toEqual(["'none'"]);
  expect(directives.get("base-uri")).toEqual(["'self'"]);
  expect(directives.get("form-action")).toEqual(["'self'"]);
  expect(directives.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
  expect(directives.get("font-src")).toEqual(["'self'"]);
  expect(directives.get("worker-src")).toEqual(["'self'", "blob:"]);
  expect(runnableInlineScripts(answer.text).length).toBeGreaterThan(0);
  expect(blockedScripts(answer)).toEqual([]);
}

describe("inlineScriptHashes", () => {
  const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

  it("hashes the text of classic and module inline scripts, once each, in order", () => {
    const html =
      '<script nonce="abc">window.a = 1;</script><p>x</p>' +
      '<script type="module" async="">import "/a.js";</script>' +
      '<script nonce="abc">window.a = 1;</script>';
    expect(inlineScriptHashes(html)).toEqual([sha("window.a = 1;"), sha('import "/a.js";')]);
  });

  it("leaves out external scripts and data blocks that are never run", () => {
    const html =
      '<script src="/x.js"></script><script type="application/ld+json">{"@type":"Thing"}</script>';
    expect(inlineScriptHashes(html)).toEqual([]);
  });
});

describe("the policy chosen by what the answer is", () => {
  let baseUrl = "";
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const app = express();
    app.use(securityHeaders({ hsts: true, turnstile: true }));
    app.get("/page", (_req, res) => res.type("html").send("<p>page</p>"));
    app.get("/json", (_req, res) => res.json({ ok: true }));
    app.get("/stale", (_req, res) => res.type("html").status(304).end());
    ({ baseUrl, close } = await listenOnFreePort(app));
  });
  afterAll(() => close());

  it("names Cloudflare for scripts and frames when Turnstile draws the bot check", async () => {
    const answer = await rawRequest(`${baseUrl}/page`);
    const directives = directivesOf(policyOf(answer));
    expect(directives.get("script-src")).toContain("https://challenges.cloudflare.com");
    expect(directives.get("frame-src")).toEqual(["https://challenges.cloudflare.com"]);
    expect(answer.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  });

  it("gives a 304 no policy, so the browser keeps the one that came with its copy", async () => {
    const answer = await rawRequest(`${baseUrl}/stale`);
    expect(answer.status).toBe(304);
    expect(answer.headers["content-security-policy"]).toBeUndefined();
  });

  it("gives non-pages the strict policy", async () => {
    expect(policyOf(await rawRequest(`${baseUrl}/json`))).toBe(STRICT);
  });
});

describeEachBackend("security headers on the site's answers", (database) => {
  const site = servePages(() => database().deps);

  const get = (path: string, headers: Record<string, string> = {}) =>
    rawRequest(`${site.url()}${path}`, headers);

  it.each([
    ["a public page", "/team", 200],
    ["the not-found page", "/no-such-page", 404],
    ["the staff sign-in", "/admin/login", 200],
    ["the owner's verify page", "/onboard/verify", 200],
  ])(
    "gives %s a fresh nonce that its inline scripts carry",
    async (_kind, path, status) => {
      // Rendered for each request (a public page is, with the response cache off).
      site.services().responseCache.disable();
      const [first, second] = await Promise.all([get(path), get(path)]).finally(() =>
        site.services().responseCache.enable(),
      );
      for (const answer of [first, second]) {
        expect(answer.status).toBe(status);
        expect(answer.headers["content-type"]).toMatch(/^text\/html/);
        expectCommonHeaders(answer);
        expectPagePolicy(answer);
      }
      const nonce = nonceOf(policyOf(first));
      expect(nonce).toBeDefined();
      expect(Buffer.from(nonce!, "base64")).toHaveLength(16);
      expect(nonceOf(policyOf(second))).not.toBe(nonce);
    },
    60_000,
  );

  it("answers a cached page with the hashes of its own scripts, never a reused nonce", async () => {
    site.services().responseCache.invalidate();
    const miss = await get("/castles", { "Accept-Encoding": "br" });
    const hit = await get("/castles", { "Accept-Encoding": "br" });
    const hitGzip = await get("/castles", { "Accept-Encoding": "gzip" });
    expect(miss.headers["x-cache"]).toBe("MISS");
    for (const answer of [miss, hit, hitGzip]) {
      expectCommonHeaders(answer);
      expectPagePolicy(answer);
    }
    for (const answer of [hit, hitGzip]) {
      expect(answer.headers["x-cache"]).toBe("HIT");
      expect(answer.headers["content-encoding"]).toBeDefined();
      const policy = policyOf(answer);
      // The stored copy still holds the first answer's nonce: a cached answer must not allow it.
      expect(nonceOf(policy)).toBeUndefined();
      expect(policy).toMatch(/'sha256-[A-Za-z0-9+/]+=*'/);
    }
    expect(hit.text).toBe(miss.text);

    const etag = String(hit.headers.etag);
    const revalidated = await get("/castles", { "Accept-Encoding": "br", "If-None-Match": etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers["content-security-policy"]).toBeUndefined();
  });

  it.each([
    ["the catalogue API", "/api/castles", /^application\/json/],
    ["an unknown API address", "/api/no-such-thing", /^application\/json/],
    ["the sitemap", "/sitemap.xml", /^application\/xml/],
  ])("gives %s the strict policy, cached or not", async (_kind, path, type) => {
    site.services().responseCache.invalidate();
    for (const answer of [await get(path), await get(path)]) {
      expect(answer.headers["content-type"]).toMatch(type);
      expectCommonHeaders(answer);
      expect(policyOf(answer)).toBe(STRICT);
    }
  });

  it("gives a media image the strict policy", async () => {
    const catalogue = JSON.parse((await get("/api/castles")).text) as { images: string[] }[];
    const image = await get(catalogue[0]!.images[0]!);
    expect(image.status).toBe(200);
    expect(image.headers["content-type"]).toMatch(/^image\//);
    expectCommonHeaders(image);
    expect(policyOf(image)).toBe(STRICT);
  });

  it("lets the whitepaper PDF be shown by the browser but never framed", async () => {
    const pdf = await get("/whitepaper.pdf");
    expect(pdf.status).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expectCommonHeaders(pdf);
    expect(policyOf(pdf)).toBe("frame-ancestors 'none'");
  }, 60_000);
});
