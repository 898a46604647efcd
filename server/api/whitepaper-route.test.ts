import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WhitepaperPdfLanguage } from "#domain/whitepaper/render-whitepaper-pdf.ts";
import { listenOnFreePort } from "#tests/setup/http.ts";
import { languageMiddleware } from "../middleware/language.ts";
import { whitepaperRoutes } from "./whitepaper.ts";

describe("GET /whitepaper.pdf when making the PDF fails", () => {
  const renders: WhitepaperPdfLanguage[] = [];
  let failNext = true;
  let server: Awaited<ReturnType<typeof listenOnFreePort>>;

  beforeAll(async () => {
    const app = express();
    app.use(languageMiddleware({ secureCookie: false }));
    app.use(
      whitepaperRoutes({
        // A renderer that fails once, as a font that cannot be read or a full disk would.
        render: async (language) => {
          renders.push(language);
          if (failNext) {
            failNext = false;
            throw new Error("renderer failed");
          }
          return new TextEncoder().encode(`%PDF-1.7 ${language}`);
        },
      }),
    );
    // Express's own handler would print the expected failure; answer it quietly instead.
    app.use(((_error, _req, res, _next) => {
      res.status(500).end();
    }) as express.ErrorRequestHandler);
    server = await listenOnFreePort(app);
  });
  afterAll(() => server.close());

  const download = (lang = "fr") => fetch(`${server.baseUrl}/whitepaper.pdf?lang=${lang}`);

  it("fails that request, renders again on the next one and keeps the PDF that worked", async () => {
    const failed = await download();
    expect(failed.status).toBe(500);
    expect(failed.headers.get("content-type")).not.toBe("application/pdf");

    const retried = await download();
    expect(retried.status).toBe(200);
    expect(retried.headers.get("content-type")).toBe("application/pdf");
    expect(await retried.text()).toBe("%PDF-1.7 fr");

    const cached = await download();
    expect(cached.status).toBe(200);
    expect(await cached.text()).toBe("%PDF-1.7 fr");
    expect(renders).toEqual(["fr", "fr"]);
  });

  it("renders once for requests that arrive together", async () => {
    const before = renders.length;
    const answers = await Promise.all([download("it"), download("it"), download("it")]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(renders.length - before).toBe(1);
  });
});
