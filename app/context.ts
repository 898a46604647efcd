import { createContext } from "react-router";
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
}
export const requestInfoContext = createContext<RequestInfo>();
