import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

/**
 * Modules every page needs, grouped into two long-lived chunks instead of a dozen small ones:
 * fewer requests on a first visit, and the framework chunk stays cached across deployments.
 * Code loaded on demand (dialogs, toaster) keeps its own chunks.
 */
const FRAMEWORK =
  /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler|i18next|react-i18next|cookie|set-cookie-parser|turbo-stream|html-parse-stringify|void-elements|clsx|class-variance-authority)[\\/]/;
const SHELL =
  /[\\/](app[\\/]components[\\/](ui[\\/](button|cn)|forms[\\/]when-engaged|external-link|language-links|site-header|site-footer|site-nav|navigation-progress|not-found-content|page-header|responsive-image)|app[\\/](meta|hydration|hooks[\\/]use-toast)|domain[\\/]media[\\/]media-url|i18n[\\/](config|instance)|content[\\/]site|domain[\\/]catalogue[\\/]catalogue-keys|domain[\\/]requests[\\/]dates)\.tsx?$|[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/](shared|context|Icon|createLucideIcon|icons[\\/](menu|x|check|globe|bed-double|map-pin)\.)/;
const PRELOAD_HELPER = "\0vite/preload-helper.js";

// when-engaged.ts goes with the shell: the hydration islands of other pages use it too.
const FORM_ISLAND = /[\\/]app[\\/]components[\\/]forms[\\/]form-island\.tsx?$/;

/**
 * What the three guest forms share and load on demand (see app/components/forms/form-island.tsx):
 * react-hook-form, the fields, the form hook and the options.
 */
const FORMS =
  /[\\/](app[\\/]components[\\/]forms[\\/](fields|use-guest-form|guest-form|bot-check|error-summary|lazy-resolver)|app[\\/]hooks[\\/]use-local-today|domain[\\/]requests[\\/]options)\.tsx?$|[\\/]node_modules[\\/]react-hook-form[\\/]/;

export default defineConfig({
  // React Router 8 on Vite 8: the custom server entry is the ssr environment's input.
  environments: { ssr: { build: { rolldownOptions: { input: "./server/entry.ts" } } } },
  build: {
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: "framework", test: FRAMEWORK, priority: 3 },
            // Vite's dynamic-import helper goes with the shell (the root uses it), or the first group
            // that needs it (forms) would pull itself onto every page.
            { name: "shell", test: (id) => SHELL.test(id) || id === PRELOAD_HELPER, priority: 2 },
            // What the form pages load first: the island that loads the rest on demand.
            { name: "form-island", test: FORM_ISLAND, priority: 1.5 },
            { name: "forms", test: FORMS, priority: 1 },
          ],
        },
      },
    },
  },
  resolve: {
    alias: [
      // react-i18next imports useSyncExternalStore through the pre-React-18 shim; React 19 has
      // it built in, so the shim's fallback code need not ship.
      { find: /^use-sync-external-store\/shim$/, replacement: "react" },
    ],
  },
  plugins: [tailwindcss(), reactRouter()],
});
