import { BRAND } from "#i18n/config.ts";

/**
 * One site configuration for the brand and the external links (decisions.md: not scattered
 * through components). Operators change these here.
 */
export const SITE = {
  /** Set in i18n/config.ts, where the messages' `{{brand}}` takes it from. */
  brand: BRAND,
  token: "$CASL",
  /** Shown in the footer's copyright line. */
  company: "Castellum",
  links: {
    x: "https://x.com/castellum",
    telegram: "https://t.me/castellum",
    /** The external launch platform of the token sale. */
    tokenSale: "https://launch.castellum.example/casl",
  },
} as const;

/** The public pages listed in the sitemap, each in every language (properties are added). */
export const PUBLIC_PAGES = [
  "/",
  "/castles",
  "/team",
  "/faqs",
  "/contact",
  "/roadmap",
  "/tokenomics",
  "/tokensale",
  "/whitepaper",
  "/booking-request",
  "/membership",
  "/privacy",
] as const;
