import { createContext } from "react-router";
import type { BotCheckClientConfig } from "../domain/bot-check/config.ts";
import type { Deps } from "../domain/deps.ts";
import type { Language } from "../i18n/config.ts";

/** Domain dependencies for loaders: they call domain functions directly, no HTTP hop. */
export const depsContext = createContext<Deps>();

/** Facts about the request the server has already settled. */
export interface RequestInfo {
  language: Language;
  /** Public origin for canonical and alternate links, without a trailing slash. */
  publicUrl: string;
  /** Where the whitepaper link points (the configured URL, or the site's own PDF). */
  whitepaperUrl: string | null;
  /** How the forms' bot check is drawn (null: the server takes no requests, e.g. some tests). */
  botCheck: BotCheckClientConfig | null;
  /** How far ahead a property booking may run (BOOKING_HORIZON_MONTHS). */
  bookingHorizonMonths: number;
}
export const requestInfoContext = createContext<RequestInfo>();
