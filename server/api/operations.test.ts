import type { Express } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "#tests/setup/database.ts";
import { testServicesEnv } from "#tests/setup/intake.ts";
import { createExpressApp } from "../app.ts";
import { createServices, type Services } from "../services.ts";
import { buildOpenApiDocument, DOCUMENT_PATH } from "./openapi.ts";
import { API_OPERATIONS } from "./operations.ts";

interface Layer {
  rawPath?: string;
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every route of an Express app as `METHOD /path`, the path in OpenAPI's `{name}` form. */
export function expressRoutes(app: Express): string[] {
  const routes: string[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const path = `${prefix}${layer.route.path}`.replace(/:(\w+)/g, "{$1}");
        for (const method of Object.keys(layer.route.methods))
          if (method !== "_all") routes.push(`${method.toUpperCase()} ${path}`);
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack, `${prefix}${layer.rawPath ?? ""}`);
      }
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack, "");
  return routes;
}

const HTTP_METHODS = ["get", "put", "post", "delete", "patch"];

describe("the /api routes and the OpenAPI document", () => {
  let app: Express;
  let services: Services;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    const database = await openTestDatabase("pglite");
    dispose = database.dispose;
    services = await createServices(database.deps, testServicesEnv());
    app = createExpressApp({
      deps: database.deps,
      env: { NODE_ENV: "test", PUBLIC_URL: "http://localhost" },
      services,
    });
  });
  afterAll(async () => {
    await services.close();
    await dispose();
  });

  const documented = () => {
    const paths = buildOpenApiDocument("http://localhost").paths ?? {};
    return Object.entries(paths).flatMap(([path, item]) =>
      HTTP_METHODS.filter((method) => (item as Record<string, unknown>)[method]).map(
        (method) => `${method.toUpperCase()} ${path}`,
      ),
    );
  };

  it("documents every /api route the app serves", () => {
    const served = expressRoutes(app).filter(
      (route) => route.split(" ")[1]!.startsWith("/api/") && route !== `GET ${DOCUMENT_PATH}`,
    );
    const missing = served.filter((route) => !documented().includes(route));
    expect(missing).toEqual([]);
  });

  it("serves every documented operation", () => {
    const served = new Set(expressRoutes(app));
    expect(documented().filter((operation) => !served.has(operation))).toEqual([]);
  });

  it("sees the routes of the routers mounted under /api", () => {
    const routes = expressRoutes(app);
    // The walk must see these, or the two tests above prove nothing.
    expect(routes).toContain("POST /api/property-owners/verify-email");
    expect(routes).toContain("GET /api/openapi.json");
  });

  it("has each operation of the registry once, under a unique operationId", () => {
    const ids = API_OPERATIONS.map((operation) => operation.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    const keys = API_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`);
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
  });
});
