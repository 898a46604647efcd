import { afterAll, beforeAll, expect, it } from "vitest";
import { matchLanguage } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { listenOnFreePort } from "#tests/setup/http.ts";
import { testServicesEnv } from "#tests/setup/intake.ts";
import { loadPages, type PageServer } from "#tests/setup/pages.ts";
import { rawRequest } from "#tests/setup/raw-http.ts";
import { createTestStaff, signIn } from "#tests/setup/staff.ts";
import { createServices, type Services } from "./services.ts";

/** NUL characters: percent-decoding turns a lone surrogate's bytes into U+FFFD, which is text. */
const HOSTILE = ["zzzz%00", "%00", "a%00b", "%00%00x"];

// The worker's one Vite server (tests/setup/pages.ts) serves the pages to both backends.
let pages: PageServer;
beforeAll(async () => {
  pages = await loadPages();
}, 120_000);
afterAll(async () => {
  await pages?.close();
});

describeEachBackend("query strings a database cannot hold", (database) => {
  let services: Services;
  let baseUrl = "";
  let cookie = "";
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    services = await createServices(database().deps, testServicesEnv({ MAIL_POLL_MS: 60_000 }));
    await createTestStaff(database().deps, "admin@castellum.test", { isAdmin: true });
    const app = pages.createExpressApp({
      deps: database().deps,
      env: { NODE_ENV: "test", PUBLIC_URL: "http://localhost" },
      services,
      build: pages.build,
    });
    ({ baseUrl, close } = await listenOnFreePort(app));
    cookie = await signIn(baseUrl, "admin@castellum.test");
  }, 120_000);
  afterAll(async () => {
    await close();
    await services?.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    rawRequest(`${baseUrl}${path}`, { cookie, ...headers });

  it("are refused by every API read with 400 {message} in the caller's language", async () => {
    const paths = [
      "/api/castles?q=",
      "/api/castles?region=",
      "/api/castles/gordon-castle?lang=",
      "/api/booking-requests?q=",
      "/api/bookings?q=",
      "/api/membership/applications?q=",
      "/api/admin/estates?q=",
      "/api/booking-requests/export.csv?q=",
    ];
    for (const path of paths)
      for (const value of HOSTILE)
        for (const language of ["en", "it"] as const) {
          const answer = await get(`${path}${value}`, { "accept-language": language });
          const what = `${path}${value} (${language})`;
          expect(answer.status, what).toBe(400);
          expect(JSON.parse(answer.text), what).toEqual({
            message: translate(language, "errors.unstorableText"),
            code: "unstorable_text",
          });
        }
  });

  it("send a page to the same address without the characters it cannot hold", async () => {
    const cases = [
      ["/castles?q=zzzz%00", "/castles?q=zzzz"],
      ["/castles?q=%00&region=tuscany", "/castles?q=&region=tuscany"],
      ["/admin/booking-requests?q=a%00b", "/admin/booking-requests?q=ab"],
      ["/admin/estates?q=%00gordon", "/admin/estates?q=gordon"],
    ];
    for (const [hostile, cleaned] of cases) {
      const answer = await get(hostile!);
      expect(answer.status, hostile).toBe(302);
      expect(answer.headers.location, hostile).toBe(cleaned);
      expect((await get(cleaned!)).status, cleaned).toBe(200);
    }
  });

  it("leave the CSV export whole: a refusal before its first byte, an export after", async () => {
    const refused = await get("/api/booking-requests/export.csv?q=zzzz%00");
    expect(refused.status).toBe(400);
    expect(refused.headers["content-type"]).toMatch(/^application\/json/);
    const exported = await get("/api/booking-requests/export.csv?q=zzzz");
    expect(exported.status).toBe(200);
    expect(exported.text.split("\n")[0]).toContain(translate("en", "staff.columns.reference"));
  });

  it("refuse an unknown lang on /api/castles, whose languages are en, fr, it and zh, and take a regional or capitalised tag as its language", async () => {
    for (const lang of ["de", "zh&lang=it"]) {
      const answer = await get(`/api/castles?lang=${lang}`, { "accept-language": "fr" });
      expect(answer.status, lang).toBe(400);
      expect(JSON.parse(answer.text), lang).toEqual({
        // The message is in the language the request settled on.
        message: translate(matchLanguage(lang) ?? "fr", "errors.invalidFilter", { field: "lang" }),
        code: "invalid_filter",
      });
    }
    for (const lang of ["", "EN", "fr-CA", "zh-Hans-CN", "it_CH"])
      expect((await get(`/api/castles?lang=${lang}`)).status, lang).toBe(200);
    for (const lang of ["en", "fr", "it", "zh"])
      expect((await get(`/api/castles?lang=${lang}`)).status, lang).toBe(200);
  });
});
