/** `npm run bench:lighthouse`: Lighthouse scores beside the blank page, then first-load JS per route. */
import { benchJsSize } from "./js-size.ts";
import { benchLighthouse } from "./lighthouse.ts";

await benchLighthouse();
await benchJsSize();
