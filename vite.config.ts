import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  // React Router 8 on Vite 8: the custom server entry is the ssr environment's input.
  environments: { ssr: { build: { rolldownOptions: { input: "./server/entry.ts" } } } },
  plugins: [tailwindcss(), reactRouter()],
});
