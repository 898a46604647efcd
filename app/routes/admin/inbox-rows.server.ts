import { requestFactsOf } from "#domain/staff/request-facts.ts";
import { countryName } from "#domain/requests/summary.ts";
import type { InboxItem } from "#domain/staff/inbox.ts";
import type { Language } from "#i18n/config.ts";
import type { InboxRow } from "#app/components/staff/inbox-row.ts";

/**
 * An inbox item as a table row: only what the columns show travels to the browser (the page's
 * data is sent twice, in the HTML and for hydration), with the country and the estate already
 * named in the staff's language (`estateNames`; the guest's own wording when it has none).
 */
export function toInboxRow(
  item: InboxItem,
  language: Language,
  estateNames: Record<number, string>,
): InboxRow {
  const { countryCode, ...facts } = requestFactsOf(item);
  return {
    ...facts,
    propertyName:
      (item.propertyId !== null ? estateNames[item.propertyId] : undefined) ?? facts.propertyName,
    id: item.id,
    kind: item.kind,
    reference: item.reference,
    status: item.status,
    version: item.version,
    name: `${item.firstName} ${item.lastName}`.trim(),
    email: item.email,
    phone: item.phone,
    propertyId: item.propertyId,
    country: countryCode ? countryName(countryCode, language) : null,
    createdAt: item.createdAt,
    dueAt: item.dueAt,
    overdue: item.overdue,
    unreadMessages: item.unreadMessages,
    money: item.money,
    erased: item.erasedAt !== null,
    ownerAgrees: item.ownerView?.agree ?? null,
  };
}
