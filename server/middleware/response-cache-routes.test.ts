import { describe, expect, it } from "vitest";
import routes from "#app/routes.ts";
import { routePaths } from "#tests/setup/route-paths.ts";
import { pageRouteOf, publicReadOf } from "./response-cache.ts";

/** An address of a route: each `:param` filled with a sample segment, `*` with two. */
const addressOf = (route: string) =>
  `/${route.replace(/:\w+/g, "sample").replace(/\*$/, "any/thing")}`;

const ROUTES = [...new Set(routePaths(routes))];

describe("the response cache's page routes", () => {
  it("classify every route of app/routes.ts as kept or never kept", () => {
    // Nested routes are joined to their parent's path, and the home page is "".
    expect(ROUTES).toEqual(expect.arrayContaining(["", "admin/booking-requests", "*"]));
    const unclassified = ROUTES.filter((route) => !pageRouteOf(route));
    expect(unclassified, "add these to PAGE_ROUTES in response-cache.ts").toEqual([]);
  });

  it("keep exactly the routes classified as kept, and their navigation data", () => {
    for (const route of ROUTES) {
      const address = addressOf(route);
      const expected = pageRouteOf(route)!.isCached ? "page" : null;
      expect(publicReadOf(address), address).toBe(expected);
      if (route !== "" && !route.endsWith("*"))
        expect(publicReadOf(`${address}.data`), `${address}.data`).toBe(expected);
    }
  });

  it("never keep a staff or owner page, however deep, listed or not", () => {
    for (const route of [
      "admin/booking-requests/:id",
      "admin/booking-requests/:id/notes",
      "onboard/claim",
    ]) {
      expect(pageRouteOf(route)?.isCached, route).toBe(false);
      expect(publicReadOf(addressOf(route)), route).toBeNull();
    }
  });
});
