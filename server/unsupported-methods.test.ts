import { expect, it } from "vitest";
import { translate } from "#i18n/translate.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { servePages } from "#tests/setup/pages.ts";
import { rawRequest } from "#tests/setup/raw-http.ts";
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
            code: "method_not_allowed",
          });
        }
  });
});

describeEachBackend("a form posted to a page", (database) => {
  const site = servePages(() => database().deps);

  it("is refused with a quiet 405: no stack, nothing outside the JSON log", async () => {
    const written: string[] = [];
    const capture = (stream: NodeJS.WriteStream) => {
      const write = stream.write.bind(stream);
      stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        written.push(String(chunk));
        return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write;
      return () => {
        stream.write = write;
      };
    };
    const restore = [capture(process.stdout), capture(process.stderr)];
    try {
      for (const path of [
        "/admin/login",
        "/contact",
        "/onboard/verify",
        `/requests/${"a".repeat(43)}`,
      ])
        for (const language of ["en", "it"] as const) {
          const answer = await fetch(`${site.url()}${path}`, {
            method: "POST",
            headers: {
              "Content-Type": "application/x-www-form-urlencoded",
              "Accept-Language": language,
            },
            body: "email=a",
          });
          expect(answer.status, path).toBe(405);
          expect(answer.headers.get("allow"), path).toBe("GET, HEAD");
          expect(await answer.json(), path).toEqual({
            message: translate(language, "errors.methodNotAllowed", { methods: "GET, HEAD" }),
            code: "method_not_allowed",
          });
        }
    } finally {
      for (const undo of restore) undo();
    }
    const lines = written
      .join("")
      .split("\n")
      .filter((line) => line.trim() !== "");
    const notJson = lines.filter((line) => {
      try {
        JSON.parse(line);
        return false;
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
  });
});
