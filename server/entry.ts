/**
 * The server entry that Vite builds (and loads in development). It is the only module that
 * imports the React Router build, so everything else stays testable without it.
 */
import { join } from "node:path";
import type { ServerBuild } from "react-router";
import { createExpressApp } from "./app.ts";
import { createDeps } from "./deps.ts";
import type { Env } from "./env.ts";
import { createServices } from "./services.ts";
import { issueSetupToken } from "#domain/staff/setup.ts";
import { createOps } from "./ops/ops.ts";
import { createCriticalCss } from "./critical-css.ts";

export async function createApp(env: Env, rootDir: string) {
  const { deps, database } = await createDeps(env, rootDir);
  const services = await createServices(deps, env);
  // A fresh installation has no admin: print a one-time link that creates the first one.
  const setupToken = await issueSetupToken(deps, env.ADMIN_EMAIL_DOMAIN);
  if (setupToken)
    deps.log.warn(
      `No admin at @${env.ADMIN_EMAIL_DOMAIN} yet. Create the first admin within 24 hours, once, at ${env.PUBLIC_URL}/admin/setup?token=${setupToken}`,
    );
  const ops = createOps({
    deps,
    database,
    migrationsFolder: join(rootDir, "db/migrations"),
    metricsToken: env.METRICS_TOKEN,
    responseCache: services.responseCache,
    mailWorker: services.mailWorker,
    jobs: services.jobs,
  });
  const app = createExpressApp({
    deps,
    env,
    services,
    ops,
    replicas: database.replicas,
    build: () => import("virtual:react-router/server-build") as Promise<ServerBuild>,
    // The built stylesheet exists in production only; development serves Vite's own.
    criticalCss:
      env.NODE_ENV === "production"
        ? createCriticalCss({ clientDir: join(rootDir, "build/client"), log: deps.log })
        : undefined,
  });
  return {
    app,
    log: deps.log,
    ops,
    close: async () => {
      await services.close();
      await database.close();
    },
  };
}
