import { createContext, useContext } from "react";
import { useTranslation } from "react-i18next";

/** The estates' names in the staff's language, by id, read by the page's loader. */
export const EstateNamesContext = createContext<Record<number, string>>({});

/** Names an estate as staff read it: its name in the page's language, else its number. */
export function useEstateName(): (id: number) => string {
  const { t } = useTranslation();
  const names = useContext(EstateNamesContext);
  return (id) => names[id] ?? t("staff.estates.estateId", { id });
}
