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
  /[\\/](app[\\/]components[\\/](ui[\\/](button|cn)|external-link|language-links|site-header|site-footer|site-nav|navigation-progress|not-found-content|page-header|responsive-image|members-badge|property-card)|app[\\/](meta|share-image|hooks[\\/]use-toast)|domain[\\/]media[\\/]media-url|i18n[\\/](config|instance)|content[\\/](site|catalogue-keys))\.tsx?$|[\\/]node_modules[\\/]lucide-react[\\/]/;

export default defineConfig({
  // React Router 8 on Vite 8: the custom server entry is the ssr environment's input.
  environments: { ssr: { build: { rolldownOptions: { input: "./server/entry.ts" } } } },
  build: {
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: "framework", test: FRAMEWORK, priority: 2 },
            { name: "shell", test: SHELL, priority: 1 },
          ],
        },
      },
    },
  },
  plugins: [tailwindcss(), reactRouter()],
});
