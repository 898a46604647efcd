import { index, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("castles", "routes/castles.tsx"),
  route("property/:idOrSlug", "routes/property.tsx"),
  // Everything else is the not-found page, answered with HTTP 404.
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
