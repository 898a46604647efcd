let hydrated = false;

/** Called once, when the first render in the browser has hydrated the server's HTML. */
export function markHydrated(): void {
  hydrated = true;
}

/**
 * False on the server and while React hydrates the server's HTML; true for every later render
 * (a client-side navigation renders without server HTML to keep).
 */
export function isHydrated(): boolean {
  return hydrated;
}
