/** The site's page links, in the order the header shows them; labels are translation keys. */
export const HEADER_LINKS = [
  { to: "/castles", label: "nav.castles" },
  { to: "/team", label: "nav.team" },
  { to: "/membership", label: "nav.membership" },
  { to: "/faqs", label: "nav.faqs" },
  { to: "/tokensale", label: "nav.tokenSale" },
  { to: "/whitepaper", label: "nav.whitepaper" },
  { to: "/contact", label: "nav.contact" },
] as const;

export const FOOTER_LINKS = [
  { to: "/", label: "nav.home" },
  { to: "/castles", label: "nav.castles" },
  { to: "/team", label: "nav.team" },
  { to: "/membership", label: "nav.membership" },
  { to: "/faqs", label: "nav.faqs" },
  { to: "/tokensale", label: "nav.tokenSale" },
  { to: "/roadmap", label: "nav.roadmap" },
  { to: "/whitepaper", label: "nav.whitepaper" },
  { to: "/contact", label: "nav.contact" },
  { to: "/privacy", label: "privacyNotice.link" },
] as const;
