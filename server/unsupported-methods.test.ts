import { expect, it } from "vitest";
import { translate } from "../i18n/translate.ts";
import { describeEachBackend } from "../tests/setup/database.ts";
import { servePages } from "../tests/setup/pages.ts";
import { rawRequest } from "../tests/setup/raw-http.ts";
import { SUPPORTED_METHODS } from "./middleware/methods.ts";

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
  const site = servePages(() => database().deps);

  it("answers 405 with {message} in the caller's language, on pages and the API", async () => {
    for (const method of UNSUPPORTED)
      for (const path of PATHS)
        for (const language of ["en", "fr"] as const) {
          const answer = await rawRequest(
            `${site.url()}${path}`,
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
