import en from "./locales/en/common.json" with { type: "json" };
import enStaff from "./locales/en/staff.json" with { type: "json" };
import fr from "./locales/fr/common.json" with { type: "json" };
import frStaff from "./locales/fr/staff.json" with { type: "json" };
import it from "./locales/it/common.json" with { type: "json" };
import itStaff from "./locales/it/staff.json" with { type: "json" };
import zh from "./locales/zh/common.json" with { type: "json" };
import zhStaff from "./locales/zh/staff.json" with { type: "json" };
import type { Language } from "./config.ts";

/**
 * The translation namespace of the interface. English is the reference for keys. The staff
 * area's messages live in their own files (`staff.json`) under the `staff` key.
 */
export type CommonMessages = typeof en & { staff: typeof enStaff };

/**
 * All interface messages. Imported on the server only: a page receives the messages of its
 * own language through the root loader, so the browser never downloads the other three (and
 * public pages never download the staff area's).
 */
export const RESOURCES: Record<Language, CommonMessages> = {
  en: { ...en, staff: enStaff },
  // Plural keys differ by language (fr and it have `_many`), so the shapes are not identical;
  // i18n/locales.test.ts checks that every language has every key English has.
  fr: { ...(fr as unknown as typeof en), staff: frStaff as unknown as typeof enStaff },
  it: { ...(it as unknown as typeof en), staff: itStaff as unknown as typeof enStaff },
  zh: { ...(zh as unknown as typeof en), staff: zhStaff as unknown as typeof enStaff },
};

/** The messages a page needs: the staff area's only on its own pages. */
export function messagesFor(language: Language, isStaffPage: boolean) {
  const { staff, ...common } = RESOURCES[language];
  return isStaffPage ? { ...common, staff } : common;
}
