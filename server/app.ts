import { createRequestHandler } from "@react-router/express";
import express, { type Express } from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { depsContext, requestInfoContext } from "../app/context.ts";
import type { Deps } from "../domain/deps.ts";
import type { Env } from "./env.ts";
import { catalogueRoutes } from "./api/catalogue.ts";
import { apiErrorHandler, apiNotFound } from "./api/errors.ts";
import { mediaRoutes } from "./api/media.ts";
import { openApiRoutes } from "./api/openapi.ts";
import { requestRoutes } from "./api/requests.ts";
import { seoRoutes } from "./api/seo.ts";
import { whitepaperRoutes } from "./api/whitepaper.ts";
import { languageMiddleware } from "./middleware/language.ts";
import { requestLog } from "./middleware/request-log.ts";
import { securityHeaders } from "./middleware/security-headers.ts";
import type { Services } from "./services.ts";
import { clientBotCheckConfig } from "../domain/bot-check/config.ts";

/** Old addresses of the castle network; all answer 301 to the canonical /castles. */
export const CASTLES_REDIRECTS = ["/bookings", "/properties", "/castle-network"];

export interface AppOptions {
  deps: Deps;
  env: Pick<Env, "NODE_ENV" | "PUBLIC_URL"> & Partial<Pick<Env, "WHITEPAPER_URL">>;
  /** Request intake (forms, bot check, mail, rate limits); without it the form endpoints are absent. */
  services?: Services;
  /** The React Router server build; without it only the API and media routes exist (tests). */
  build?: () => Promise<ServerBuild>;
}

/** The Express application: headers, language, API, media, redirects, then the pages. */
export function createExpressApp({ deps, env, build, services }: AppOptions): Express {
  const app = express();
  const isProduction = env.NODE_ENV === "production";
  const isHttps = env.PUBLIC_URL.startsWith("https://");
  app.disable("x-powered-by");
  app.set("etag", "strong");
  app.set("trust proxy", "loopback");

  app.use(requestLog(deps.log));
  app.use(securityHeaders({ hsts: isProduction && isHttps }));
  app.use(languageMiddleware({ secureCookie: isProduction && isHttps }));

  app.use("/api", catalogueRoutes(deps));
  app.use("/api", openApiRoutes(env.PUBLIC_URL));
  if (services) app.use("/api", requestRoutes(deps, services, env.PUBLIC_URL));
  app.use("/api", apiNotFound);
  app.use("/api", apiErrorHandler(deps.log));
  app.use("/media", mediaRoutes(deps));
  app.use("/media", apiNotFound);
  app.use("/media", apiErrorHandler(deps.log));

  app.use(seoRoutes(deps, env.PUBLIC_URL));
  app.use(whitepaperRoutes({ externalUrl: env.WHITEPAPER_URL }));

  app.get(CASTLES_REDIRECTS, (req, res) => {
    const query = req.originalUrl.indexOf("?");
    res.redirect(301, `/castles${query >= 0 ? req.originalUrl.slice(query) : ""}`);
  });

  if (build) {
    app.use(
      createRequestHandler({
        build,
        mode: env.NODE_ENV === "production" ? "production" : "development",
        getLoadContext(_req, res) {
          const context = new RouterContextProvider();
          context.set(depsContext, deps);
          context.set(requestInfoContext, {
            language: res.locals.language,
            publicUrl: env.PUBLIC_URL,
            whitepaperUrl: env.WHITEPAPER_URL ?? null,
            botCheck: services ? clientBotCheckConfig(services.intake.botCheck) : null,
            bookingHorizonMonths: services?.intake.bookingHorizonMonths ?? 18,
          });
          return context;
        },
      }),
    );
  }
  return app;
}
