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
  route("privacy", "routes/privacy.tsx"),
  // The staff area. Sign-in and the first-admin setup are open; everything else sits under
  // the layout, whose loader (and each page's) refuses anyone who is not a company admin.
  // The owner area: verify by emailed code and claim (public), then the dashboard, which an
  // owner's session or a staff admin (with ?estate=) may open.
  route("onboard/verify", "routes/onboard-verify.tsx"),
  route("admin/dashboard", "routes/admin/dashboard.tsx"),
  route("admin/login", "routes/admin/login.tsx"),
  route("admin/setup", "routes/admin/setup.tsx"),
  route("admin/enrol", "routes/admin/enrol.tsx"),
  route("admin/forgot-password", "routes/admin/forgot-password.tsx"),
  route("admin/password-reset/:token", "routes/admin/password-reset.tsx"),
  route("admin/invitation/:token", "routes/admin/invitation.tsx"),
  route("admin", "routes/admin/layout.tsx", [
    // A request's details are a dialog over the inbox: a route of their own (a link, the
    // back button), whose loader reads the request while the inbox stays as it was.
    route("booking-requests", "routes/admin/booking-requests.tsx", [
      route(":collection/:id", "routes/admin/request-details.tsx"),
    ]),
    route("mail", "routes/admin/mail.tsx"),
    route("account/security", "routes/admin/account-security.tsx"),
    route("webhooks", "routes/admin/webhooks.tsx"),
    route("accounts", "routes/admin/accounts.tsx"),
    route("account", "routes/admin/account.tsx"),
    route("security", "routes/admin/security.tsx"),
    route("privacy", "routes/admin/privacy.tsx"),
    route("account/passkeys", "routes/admin/account-passkeys.tsx"),
    route("estates", "routes/admin/estates.tsx"),
    route("estates/:id", "routes/admin/estate.tsx"),
    route("estates/:id/calendar", "routes/admin/estate-calendar.tsx"),
  ]),
  // Everything else is the not-found page, answered with HTTP 404.
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
