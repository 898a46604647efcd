import { index, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("castles", "routes/castles.tsx"),
  route("property/:idOrSlug", "routes/property.tsx"),
  route("team", "routes/team.tsx"),
  route("contact", "routes/contact.tsx"),
  route("faqs", "routes/faqs.tsx"),
  route("roadmap", "routes/roadmap.tsx"),
  route("tokenomics", "routes/tokenomics.tsx"),
  route("tokensale", "routes/tokensale.tsx"),
  route("whitepaper", "routes/whitepaper.tsx"),
  route("booking-request", "routes/booking-request.tsx"),
  route("booking/:idOrSlug", "routes/booking.tsx"),
  route("membership", "routes/membership.tsx"),
  route("requests/:token", "routes/request-status.tsx"),
  // Everything else is the not-found page, answered with HTTP 404.
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
