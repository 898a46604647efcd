export * from "./catalogue.ts";
export * from "./requests.ts";
export * from "./staff.ts";
export * from "./owners.ts";
export * from "./calendar.ts";
