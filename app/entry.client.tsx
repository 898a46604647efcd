/**
 * React Router's default client entry, with one change: hydration starts after the browser has
 * painted the server's HTML. When the scripts are already there as parsing ends (a fast line,
 * a cached visit), the browser would otherwise run them and the whole hydration before its
 * first paint, and the guest would wait for JavaScript to see a page that needs none to show.
 */
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { config as configureZod } from "zod/v4/core";

// The shared schemas parse without compiling code: the Content-Security-Policy allows no eval,
// and zod's probe for it (a caught `new Function`) would still be reported as a violation.
configureZod({ jitless: true });

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
