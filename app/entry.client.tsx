/**
 * React Router's default client entry, with one change: hydration starts after the browser has
 * painted the server's HTML. When the scripts are already there as parsing ends (a fast line,
 * a cached visit), the browser would otherwise run them and the whole hydration before its
 * first paint, and the guest would wait for JavaScript to see a page that needs none to show.
 */
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

// zod is told to compile no code (the CSP allows no eval) by an inline script in the page's
// head (app/root.tsx): the route modules of the first page, zod's chunk among them, run
// before this entry does.

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });
}

// requestAnimationFrame runs just before the next paint, the timeout just after it. A hidden
// page does not paint (no animation frames), so it hydrates at once.
if (document.visibilityState === "hidden") hydrate();
else requestAnimationFrame(() => setTimeout(hydrate, 0));
