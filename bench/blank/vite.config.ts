import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";

// The baseline of the benchmarks: the same stack (React Router 8 SSR, Vite 8) with a blank page.
export default defineConfig({ plugins: [reactRouter()] });
