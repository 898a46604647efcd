import en from "./locales/en/common.json" with { type: "json" };
import fr from "./locales/fr/common.json" with { type: "json" };
import it from "./locales/it/common.json" with { type: "json" };
import zh from "./locales/zh/common.json" with { type: "json" };
import type { Language } from "./config.ts";

/** The translation namespace of the interface. English is the reference for keys. */
export type CommonMessages = typeof en;

/**
 * All interface messages. Imported on the server only: a page receives the messages of its
 * own language through the root loader, so the browser never downloads the other three.
 */
export const RESOURCES: Record<Language, CommonMessages> = { en, fr, it, zh };
