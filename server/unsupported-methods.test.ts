import { afterAll, beforeAll, expect, it } from "vitest";
import { translate } from "../i18n/translate.ts";
import { describeEachBackend } from "../tests/setup/database.ts";
import { listenOnFreePort } from "../tests/setup/http.ts";
import { testServicesEnv } from "../tests/setup/intake.ts";
import { loadPages, type PageServer } from "../tests/setup/pages.ts";
import { rawRequest } from "../tests/setup/raw-http.ts";
import { SUPPORTED_METHODS } from "./middleware/methods.ts";
import { createServices, type Services } from "./services.ts";

/** Methods a scanner sends that the site implements nowhere (Node's parser knows them all). */
const UNSUPPORTED = ["TRACE", "PROPFIND", "PROPPATCH", "MKCOL", "LOCK", "COPY", "PURGE"];
const PATHS = [
  "/",
  "/castles",
  "/property/gordon-castle",
  "/admin/booking-requests",
  "/api/castles",
];

describeEachBackend("a method the site does not implement", (database) => {
  let pages: PageServer;
  let services: Services;
  let baseUrl = "";
  let close: () => Promise<void> = async () => {};
  beforeAll(async () => {
    pages = await loadPages();
    services = await createServices(database().deps, testServicesEnv({ MAIL_POLL_MS: 60_000 }));
    const app = pages.createExpressApp({
      deps: database().deps,
      env: { NODE_ENV: "test", PUBLIC_URL: "http://localhost" },
      services,
      build: pages.build,
    });
    ({ baseUrl, close } = await listenOnFreePort(app));
  }, 120_000);
  afterAll(async () => {
    await close();
    await services?.close();
    await pages?.close();
  });

  it("answers 405 with {message} in the caller's language, on pages and the API", async () => {
    for (const method of UNSUPPORTED)
      for (const path of PATHS)
        for (const language of ["en", "fr"] as const) {
          const answer = await rawRequest(
            `${baseUrl}${path}`,
            { "accept-language": language },
            method,
          );
          const what = `${method} ${path} (${language})`;
          expect(answer.status, what).toBe(405);
          expect(answer.headers.allow, what).toMatch(/\bGET\b/);
          expect(JSON.parse(answer.text), what).toEqual({
            message: translate(language, "errors.methodNotAllowed", {
              methods: SUPPORTED_METHODS.join(", "),
            }),
          });
        }
  });
});
