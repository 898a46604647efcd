/** The owner dashboard's tabs (`?tab=`), apart from the dashboard so sign-in can name one. */
export type TabId = "images" | "overview" | "calendar" | "rates" | "requests";
export const TAB_IDS: readonly TabId[] = ["images", "overview", "calendar", "rates", "requests"];

/** Whether `value` names one of the dashboard's tabs. */
export const isOwnerTab = (value: string): value is TabId =>
  (TAB_IDS as readonly string[]).includes(value);
