/**
 * `npm run bench:lighthouse`: Lighthouse scores beside the blank page, then first-load JS per
 * route. `npm run bench:lighthouse -- --all` measures every public page (en and zh) in the same
 * run as the blank page.
 */
import { benchJsSize } from "./js-size.ts";
import { ALL_LIGHTHOUSE_PATHS, benchLighthouse, LIGHTHOUSE_PATHS } from "./lighthouse.ts";

await benchLighthouse(process.argv.includes("--all") ? ALL_LIGHTHOUSE_PATHS : LIGHTHOUSE_PATHS);
await benchJsSize();
