import { useSyncExternalStore } from "react";
import { localIsoDate } from "#domain/requests/dates.ts";

const subscribe = () => () => {};

/**
 * Today ('YYYY-MM-DD') in the guest's time zone. The server renders its own date; once
 * hydrated the browser uses the guest's, so date pickers start at the guest's today.
 */
export function useLocalToday(serverToday: string): string {
  return useSyncExternalStore(subscribe, localIsoDate, () => serverToday);
}
