import { randomBytes } from "node:crypto";
import express, { type Express } from "express";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { listenOnFreePort } from "#tests/setup/http.ts";
import { rawRequest } from "#tests/setup/raw-http.ts";
import { languageMiddleware, readCookie } from "./language.ts";
import {
  negotiateEncoding,
  publicReadOf,
  ResponseCache,
  responseCacheMiddleware,
} from "./response-cache.ts";

/**
 * The cache in front of a small app whose answers say how often each was rendered: a body
 * with an old render number is one the cache answered.
 */
function cachedApp(cache: ResponseCache) {
  const renders = new Map<string, number>();
  const render = (name: string) => {
    const n = (renders.get(name) ?? 0) + 1;
    renders.set(name, n);
    return n;
  };
  let release: (() => void) | undefined;
  const app: Express = express();
  app.set("etag", "strong"); // as the real app
  app.use(languageMiddleware({ secureCookie: false }));
  app.use(responseCacheMiddleware(cache, { privateCookies: ["castellum_session"] }));
  app.get("/castles", (req, res) => {
    const user = readCookie(req.headers.cookie, "castellum_session");
    res
      .type("html")
      .send(`<p>castles, render ${render("castles")}${user ? ` for ${user}` : ""}</p>`);
  });
  app.get("/team", (_req, res) => {
    res.cookie("visitor", String(render("team")));
    res.type("html").send(`<p>team, render ${renders.get("team")}</p>`);
  });
  app.get("/property/:slug", (req, res) => {
    const n = render(`property ${req.params.slug}`);
    if (req.params.slug === "missing") return res.status(404).send(`not found ${n}`);
    // Big enough to compress, different per estate (the byte-bound test fills the cache).
    res.type("html").send(`<p>${req.params.slug} ${n}</p>${randomBytes(6000).toString("base64")}`);
  });
  // A streamed page, as React Router writes one: several writes, then end.
  app.get("/faqs", (_req, res) => {
    const n = render("faqs");
    res.type("html");
    res.write("<html><body>");
    setTimeout(() => {
      res.write(`<p>faqs ${n} ${"question and answer ".repeat(200)}</p>`);
      res.end("</body></html>");
    }, 5);
  });
  // A page that waits for the test, to change the catalogue while it renders.
  app.get("/roadmap", async (_req, res) => {
    const n = render("roadmap");
    await new Promise<void>((resolve) => {
      release = resolve;
    });
    res.type("html").send(`<p>roadmap ${n}</p>`);
  });
  app.get("/api/castles", (req, res) => {
    res.set("Cache-Control", "public, no-cache");
    res.json({ render: render("api"), lang: req.query.lang ?? null, filler: "x".repeat(3000) });
  });
  app.get("/api/castles/:id", (_req, res) => {
    res.set("Cache-Control", "private, no-store");
    res.json({ render: render("private") });
  });
  app.get("/admin/estates", (_req, res) => {
    res.type("html").send(`admin ${render("admin")}`);
  });
  return {
    app,
    renders: (name: string) => renders.get(name) ?? 0,
    resetRenders: () => renders.clear(),
    releaseRoadmap: () => release?.(),
  };
}

/** The test app's JSON answers count their renders: `{render}`. */
const renderOf = (text: string) => z.object({ render: z.number() }).parse(JSON.parse(text)).render;

describe("response cache", () => {
  const cache = new ResponseCache({ maxBytes: 256 * 1024 });
  const site = cachedApp(cache);
  let baseUrl = "";
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    cache.enable();
    ({ baseUrl, close } = await listenOnFreePort(site.app));
  });
  afterAll(() => close());
  afterEach(() => {
    cache.invalidate();
    site.resetRenders();
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    rawRequest(`${baseUrl}${path}`, headers);

  it("answers the second anonymous request from memory, with the same body", async () => {
    const first = await get("/castles");
    const second = await get("/castles");
    expect(first.text).toBe("<p>castles, render 1</p>");
    expect(second.text).toBe(first.text);
    expect(second.headers["x-cache"]).toBe("HIT");
    expect(second.headers["cache-control"]).toBe(
      "public, max-age=0, s-maxage=60, stale-while-revalidate=300",
    );
    expect(second.headers.vary).toMatch(/Accept-Encoding/);
    expect(second.headers.vary).toMatch(/Accept-Language/);
  });

  it("never answers nor stores a request that carries the session cookie", async () => {
    const signedIn = { Cookie: "castellum_session=ada" };
    const first = await get("/castles", signedIn);
    const second = await get("/castles", signedIn);
    expect(first.text).toBe("<p>castles, render 1 for ada</p>");
    expect(second.text).toBe("<p>castles, render 2 for ada</p>");
    const anonymous = await get("/castles");
    expect(anonymous.text).toBe("<p>castles, render 3</p>");
    expect(anonymous.text).not.toContain("ada");
    // …and a stored anonymous page is not handed to a signed-in visitor either.
    expect((await get("/castles", signedIn)).text).toBe("<p>castles, render 4 for ada</p>");
    expect((await get("/castles")).text).toBe("<p>castles, render 3</p>");
    // Whatever the cookie's value, even one that is not valid percent-encoding.
    const odd = await get("/castles", { Cookie: "lang=en; castellum_session" });
    expect(odd.text).toBe("<p>castles, render 5</p>");
  });

  it("never stores an answer that sets a cookie of its own", async () => {
    const first = await get("/team");
    const second = await get("/team");
    expect(first.headers["set-cookie"]?.[0]).toMatch(/^visitor=1;/);
    expect(second.headers["set-cookie"]?.[0]).toMatch(/^visitor=2;/);
    expect(second.text).toBe("<p>team, render 2</p>");
  });

  it("keeps the page of ?lang= but sets the language cookie on every request, not from memory", async () => {
    const first = await get("/castles?lang=fr");
    const second = await get("/castles?lang=fr", { Cookie: "lang=it" });
    expect(second.headers["x-cache"]).toBe("HIT");
    expect(second.text).toBe(first.text);
    for (const answer of [first, second]) {
      expect(answer.headers["set-cookie"]).toHaveLength(1);
      expect(answer.headers["set-cookie"]?.[0]).toMatch(/^lang=fr;/);
      // A shared cache must not keep an answer that sets a cookie.
      expect(answer.headers["cache-control"]).toBe("private, no-cache");
    }
    // The same page without ?lang= sets no cookie, though it is the same French page.
    const remembered = await get("/castles", { Cookie: "lang=fr" });
    expect(remembered.headers["set-cookie"]).toBeUndefined();
    expect(remembered.headers["cache-control"]).toMatch(/^public/);
    // A HEAD of the stored ?lang= page sets no cookie (the language middleware sets it on
    // GETs only): the cookie was never part of what is stored.
    const head = await rawRequest(`${baseUrl}/castles?lang=fr`, {}, "HEAD");
    expect(head.headers["x-cache"]).toBe("HIT");
    expect(head.headers["set-cookie"]).toBeUndefined();
  });

  it("keys by language and by the sorted query", async () => {
    const english = await get("/api/castles?lang=en&b=2&a=1");
    const reordered = await get("/api/castles?a=1&lang=en&b=2");
    expect(reordered.text).toBe(english.text);
    expect(reordered.headers["x-cache"]).toBe("HIT");
    const french = await get("/api/castles?lang=fr&b=2&a=1");
    expect(renderOf(french.text)).not.toBe(renderOf(english.text));
    // The page language from Accept-Language is part of the key too.
    const a = await get("/castles", { "Accept-Language": "it" });
    const b = await get("/castles", { "Accept-Language": "zh-CN" });
    expect(b.text).not.toBe(a.text);
    expect((await get("/castles", { "Accept-Language": "it-IT" })).text).toBe(a.text);
  });

  it("never stores errors, private answers or paths outside the public reads", async () => {
    expect((await get("/property/missing")).text).toBe("not found 1");
    expect((await get("/property/missing")).text).toBe("not found 2");
    expect((await get("/api/castles/15")).text).toBe('{"render":1}');
    expect((await get("/api/castles/15")).text).toBe('{"render":2}');
    expect((await get("/admin/estates")).text).toBe("admin 1");
    expect((await get("/admin/estates")).text).toBe("admin 2");
  });

  it("stores a streamed page whole and answers it in every encoding with the same text", async () => {
    const first = await get("/faqs");
    expect(first.headers["x-cache"]).toBe("MISS");
    const br = await get("/faqs", { "Accept-Encoding": "gzip, deflate, br" });
    const gzip = await get("/faqs", { "Accept-Encoding": "gzip" });
    const identity = await get("/faqs", { "Accept-Encoding": "identity" });
    const none = await get("/faqs");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(none.headers["content-encoding"]).toBeUndefined();
    for (const answer of [br, gzip, identity, none]) {
      expect(answer.headers["x-cache"]).toBe("HIT");
      expect(answer.text).toBe(first.text);
      expect(Number(answer.headers["content-length"])).toBe(answer.raw.length);
    }
    expect(br.raw.length).toBeLessThan(gzip.raw.length);
    expect(gzip.raw.length).toBeLessThan(identity.raw.length);
    expect(site.renders("faqs")).toBe(1);
    // One validator per encoding, all of the same content.
    expect(new Set([br, gzip, identity].map((a) => a.headers.etag)).size).toBe(3);
  });

  it("answers 304 to If-None-Match while the body is unchanged, and 200 with a new ETag after a change", async () => {
    await get("/api/castles");
    const stored = await get("/api/castles", { "Accept-Encoding": "br" });
    const etag = String(stored.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const unchanged = await get("/api/castles", { "If-None-Match": etag, "Accept-Encoding": "br" });
    expect(unchanged.status).toBe(304);
    expect(unchanged.raw.length).toBe(0);
    expect(unchanged.headers.etag).toBe(etag);
    // A validator of another encoding of the same content is just as current.
    const otherEncoding = await get("/api/castles", { "If-None-Match": `W/${etag}` });
    expect(otherEncoding.status).toBe(304);

    cache.invalidate(); // what a catalogue change does
    const changed = await get("/api/castles", { "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(renderOf(changed.text)).toBe(2);
    const again = await get("/api/castles", { "If-None-Match": etag, "Accept-Encoding": "br" });
    expect(again.status).toBe(200);
    expect(again.headers.etag).not.toBe(etag);
  });

  it("keeps the API's own Cache-Control and its Express ETag", async () => {
    const miss = await get("/api/castles?lang=it");
    const hit = await get("/api/castles?lang=it");
    expect(hit.headers["x-cache"]).toBe("HIT");
    expect(hit.headers["cache-control"]).toBe("public, no-cache");
    expect(hit.headers.etag).toBe(miss.headers.etag);
    expect(hit.headers["content-type"]).toBe(miss.headers["content-type"]);
  });

  it("does not store a page rendered before a change that lands while it renders", async () => {
    const during = get("/roadmap");
    await expect.poll(() => site.renders("roadmap")).toBe(1);
    cache.invalidate();
    site.releaseRoadmap();
    expect((await during).text).toBe("<p>roadmap 1</p>");
    const after = get("/roadmap");
    await expect.poll(() => site.renders("roadmap")).toBe(2);
    site.releaseRoadmap();
    expect((await after).text).toBe("<p>roadmap 2</p>");
  });

  it("renders a page once for many simultaneous requests", async () => {
    // Each request that finds the page being rendered asks the cache for that render.
    const pending = vi.spyOn(cache, "pending");
    const joined = () => pending.mock.results.filter((call) => call.value !== undefined).length;
    const answers = Promise.all(Array.from({ length: 20 }, () => get("/roadmap")));
    // The render is released once the other 19 wait for it, so none may start another.
    await expect.poll(joined).toBe(19);
    pending.mockRestore();
    expect(site.renders("roadmap")).toBe(1);
    site.releaseRoadmap();
    const texts = new Set((await answers).map((answer) => answer.text));
    expect([...texts]).toEqual(["<p>roadmap 1</p>"]);
    expect(site.renders("roadmap")).toBe(1);
  });

  it("stays within its byte bound, dropping the least recently used first", async () => {
    const slugs = Array.from({ length: 60 }, (_, i) => `estate-${i}`);
    for (const slug of slugs) await get(`/property/${slug}`);
    // Each store compresses the page first (off the request): on a loaded machine the 60
    // stores can take seconds, so the poll waits as long as it takes, up to a bound.
    await expect.poll(() => cache.stats().stores, { timeout: 30_000 }).toBeGreaterThanOrEqual(60);
    const { bytes, entries, evictions } = cache.stats();
    expect(bytes).toBeLessThanOrEqual(cache.maxBytes);
    expect(evictions).toBeGreaterThan(0);
    expect(entries).toBeLessThan(60);
    // The newest is still there; the oldest was rendered again.
    expect((await get("/property/estate-59")).headers["x-cache"]).toBe("HIT");
    expect((await get("/property/estate-0")).text).toMatch(/^<p>estate-0 2<\/p>/);
  });

  it("serves nothing while disabled (its change listener is down)", async () => {
    await get("/castles");
    expect((await get("/castles")).headers["x-cache"]).toBe("HIT");
    cache.disable();
    try {
      const answer = await get("/castles");
      expect(answer.headers["x-cache"]).toBeUndefined();
      expect(answer.text).toMatch(/render \d+<\/p>$/);
      expect(answer.text).not.toBe((await get("/castles")).text);
    } finally {
      cache.enable();
    }
  });
});

describe("response cache rules", () => {
  it("knows the public reads", () => {
    for (const path of [
      "/",
      "/castles",
      "/castles.data",
      "/_root.data",
      "/property/gordon-castle",
      "/booking/gordon-castle",
      "/booking-request",
      "/membership",
    ])
      expect(publicReadOf(path), path).toBe("page");
    for (const path of [
      "/api/castles",
      "/api/castles/15",
      "/api/castles/gordon-castle/availability",
      "/api/openapi.json",
      "/sitemap.xml",
    ])
      expect(publicReadOf(path), path).toBe("resource");
    for (const path of [
      "/admin",
      "/admin/estates",
      // A request's details over the inbox (staff: never kept), its page and its data.
      "/admin/booking-requests/applications/0b7c3d7e-8f1a-4c39-9d55-1f0e6a2b7c44",
      "/admin/booking-requests/bookings/0b7c3d7e-8f1a-4c39-9d55-1f0e6a2b7c44.data",
      "/onboard/verify",
      "/requests/abc",
      "/api/bot-check/challenge",
      "/api/booking-requests",
      "/api/admin/session",
      "/api/property-owners/property-details",
      "/media/abc/800.webp",
      "/property/a/b",
      "/api/castles/15/images",
      "/api/castles/15/availability/more",
    ])
      expect(publicReadOf(path), path).toBeNull();
  });

  it("negotiates the encoding by quality", () => {
    expect(negotiateEncoding(undefined)).toBe("identity");
    expect(negotiateEncoding("gzip, deflate, br")).toBe("br");
    expect(negotiateEncoding("gzip, br;q=0.5")).toBe("gzip");
    expect(negotiateEncoding("br;q=0, gzip;q=0")).toBe("identity");
    expect(negotiateEncoding("deflate")).toBe("identity");
    expect(negotiateEncoding("*")).toBe("br");
    expect(negotiateEncoding("identity, gzip;q=0.5")).toBe("identity");
  });
});
