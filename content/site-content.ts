import type { Language } from "#i18n/config.ts";
import faqJson from "./faq.json" with { type: "json" };
import homeJson from "./home.json" with { type: "json" };
import privacyJson from "./privacy.json" with { type: "json" };
import roadmapJson from "./roadmap.json" with { type: "json" };
import {
  FaqContentSchema,
  HomeContentSchema,
  type Localized,
  PrivacyNoticeContentSchema,
  RoadmapContentSchema,
  TeamContentSchema,
  WhitepaperContentSchema,
} from "./site-content.schema.ts";
import teamJson from "./team.json" with { type: "json" };
import whitepaperJson from "./whitepaper.json" with { type: "json" };

// Parsed once at start: a content file that breaks its schema stops the server with the path.
export const HOME = HomeContentSchema.parse(homeJson);
export const TEAM = TeamContentSchema.parse(teamJson);
export const ROADMAP = RoadmapContentSchema.parse(roadmapJson);
export const FAQ = FaqContentSchema.parse(faqJson);
export const WHITEPAPER = WhitepaperContentSchema.parse(whitepaperJson);
export const PRIVACY_NOTICE = PrivacyNoticeContentSchema.parse(privacyJson);

/** A content text in one language. */
export function localize(text: Localized, language: Language): string {
  return text[language];
}

/**
 * Fills `{{name}}` placeholders (tokenomics figures in FAQ and whitepaper texts, the privacy
 * contact address in the privacy notice).
 */
export function fillPlaceholders(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (match, name: string) => values[name] ?? match);
}
