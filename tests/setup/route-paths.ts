interface RouteEntry {
  path?: string;
  index?: boolean;
  children?: RouteEntry[];
}

/** Every route path of a React Router route config (app/routes.ts), nested ones joined to their parent's. */
export function routePaths(entries: readonly RouteEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const path = [parent, entry.path ?? ""].filter(Boolean).join("/");
    return [
      ...(entry.path !== undefined || entry.index ? [path] : []),
      ...routePaths(entry.children ?? [], path),
    ];
  });
}
