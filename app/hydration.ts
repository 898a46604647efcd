import { EARLY_PRESS_KEY } from "./first-screen.ts";

let hydrated = false;

/**
 * Called once, when the first render in the browser has hydrated the server's HTML: React
 * handles presses from now on, and a button pressed before, if any is left, is pressed again.
 */
export function markHydrated(): void {
  hydrated = true;
  document.documentElement.setAttribute("data-hydrated", "");
  takeEarlyPress()?.click();
}

/**
 * The button pressed before the page hydrated (kept by the root's inline script,
 * app/first-screen.ts), if there is one, still in the page, and inside `within` when given:
 * taken, so it is pressed again once only. A part that hydrates on its own takes its own
 * (components/hydration-island.tsx) before the root presses the rest.
 */
export function takeEarlyPress(within?: Element): HTMLElement | null {
  const store = window as unknown as Record<string, HTMLElement | undefined>;
  const button = store[EARLY_PRESS_KEY];
  if (!button || (within && !within.contains(button))) return null;
  delete store[EARLY_PRESS_KEY];
  return button.isConnected ? button : null;
}

/**
 * False on the server and while React hydrates the server's HTML; true for every later render
 * (a client-side navigation renders without server HTML to keep).
 */
export function isHydrated(): boolean {
  return hydrated;
}
