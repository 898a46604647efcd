/** `npm run bench`: every benchmark (startup, JS size, Lighthouse, then request intake), one after the other (they share the machine's two cores). */
import { benchJsSize } from "./js-size.ts";
import { benchLighthouse } from "./lighthouse.ts";
import { benchStartup } from "./startup.ts";

await benchStartup();
await benchJsSize();
await benchLighthouse();
await import("./intake.ts");
