export * from "./catalogue.ts";
export * from "./requests.ts";
