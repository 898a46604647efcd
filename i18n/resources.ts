import en from "./locales/en/common.json" with { type: "json" };
import enOwner from "./locales/en/owner.json" with { type: "json" };
import enStaff from "./locales/en/staff.json" with { type: "json" };
import fr from "./locales/fr/common.json" with { type: "json" };
import frOwner from "./locales/fr/owner.json" with { type: "json" };
import frStaff from "./locales/fr/staff.json" with { type: "json" };
import it from "./locales/it/common.json" with { type: "json" };
import itOwner from "./locales/it/owner.json" with { type: "json" };
import itStaff from "./locales/it/staff.json" with { type: "json" };
import zh from "./locales/zh/common.json" with { type: "json" };
import zhOwner from "./locales/zh/owner.json" with { type: "json" };
import zhStaff from "./locales/zh/staff.json" with { type: "json" };
import type { Language } from "./config.ts";
import type { MessageArea } from "./message-areas.ts";

export { messageAreasOf, type MessageArea } from "./message-areas.ts";

/**
 * The translation namespace of the interface. English is the reference for keys. The staff
 * area's and the owner area's messages live in their own files (`staff.json`, `owner.json`)
 * under the `staff` and `owner` keys.
 */
export type CommonMessages = typeof en & { staff: typeof enStaff; owner: typeof enOwner };

/**
 * All interface messages. Imported on the server only: a page receives the messages of its
 * own language through the root loader, so the browser never downloads the other three (and
 * public pages never download the staff or owner area's).
 */
export const RESOURCES: Record<Language, CommonMessages> = {
  en: { ...en, staff: enStaff, owner: enOwner },
  // Plural keys differ by language (fr and it have `_many`), so the shapes are not identical;
  // i18n/locales.test.ts checks that every language has every key English has.
  fr: {
    ...(fr as unknown as typeof en),
    staff: frStaff as unknown as typeof enStaff,
    owner: frOwner as unknown as typeof enOwner,
  },
  it: {
    ...(it as unknown as typeof en),
    staff: itStaff as unknown as typeof enStaff,
    owner: itOwner as unknown as typeof enOwner,
  },
  zh: {
    ...(zh as unknown as typeof en),
    staff: zhStaff as unknown as typeof enStaff,
    owner: zhOwner as unknown as typeof enOwner,
  },
};

/**
 * Common namespaces that only the guest's request page and the staff and owner areas show: an
 * offer and its payments, a request's status, history and conversation, the words of the mails.
 * They are a third of the common messages, which every public page carries in its HTML and
 * reads before it hydrates.
 */
const REQUEST_NAMESPACES = [
  "offers",
  "requestStatus",
  "conversation",
  "lifecycle",
  "mail",
] as const;
type RequestNamespace = (typeof REQUEST_NAMESPACES)[number];

/** The messages a page needs: the common ones, plus those of the areas it belongs to. */
export function messagesFor(language: Language, areas: readonly MessageArea[] = []) {
  const { staff, owner, ...all } = RESOURCES[language];
  // Every area (the request page, staff, owner) shows requests; the other public pages do not.
  const common: Omit<typeof all, RequestNamespace> & Partial<Pick<typeof all, RequestNamespace>> =
    areas.length > 0
      ? all
      : (Object.fromEntries(
          Object.entries(all).filter(
            ([key]) => !(REQUEST_NAMESPACES as readonly string[]).includes(key),
          ),
        ) as Omit<typeof all, RequestNamespace>);
  return {
    ...common,
    ...(areas.includes("staff") ? { staff } : {}),
    ...(areas.includes("owner") ? { owner } : {}),
  };
}
