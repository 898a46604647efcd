import { DEFERRED_MODULE_TYPE, MODULE_PRELOAD_ATTRIBUTE } from "#app/first-screen.ts";
import { SWAP_ATTRIBUTE } from "./critical-css.ts";

/**
 * What a public page loads after its first screen (app/first-screen.ts, decision 0039). React
 * Router announces every module of the route in the head (`<link rel="modulepreload">`, at the
 * priority of the largest image) and runs them from an async module script, and the whole
 * stylesheet follows its inlined critical rules (server/critical-css.ts): on a slow line all of
 * it shares the first round trips with the HTML and the largest image, though the first screen
 * needs none of it.
 *
 * Here the page leaves with React Router's module script inert, its module preloads listed on
 * it instead of in the head, and the deferred stylesheet `disabled` (not fetched); the root's
 * inline script starts both once the first screen has painted. The browser then runs exactly
 * the script React Router wrote, later. React hydrates both elements as they are: it matches a
 * head link by its rel and href, and an inline script by its tag.
 */
export function deferLoading(html: string): string {
  return deferStylesheet(deferModules(html));
}

const MODULE_PRELOAD = /<link rel="modulepreload" href="([^"]+)"[^>]*>/g;
/** React Router's route-module script: the page's only inline module script. */
const MODULE_SCRIPT = /<script((?:(?!src=)[^>])*) type="module"((?:(?!src=)[^>])*)>/;
/** The stylesheet link critical-css.ts deferred (`media="print" data-swap-media="all"`). */
const DEFERRED_STYLESHEET = new RegExp(`(<link\\b[^>]*\\b${SWAP_ATTRIBUTE}="[^"]*")`, "g");

/** The module script inert, with the module preloads moved onto it (none without it). */
function deferModules(html: string): string {
  if (!MODULE_SCRIPT.test(html)) return html;
  const preloads = [...html.matchAll(MODULE_PRELOAD)].map((match) => match[1]!);
  return html
    .replace(MODULE_PRELOAD, "")
    .replace(
      MODULE_SCRIPT,
      (_, before: string, after: string) =>
        `<script${before} type="${DEFERRED_MODULE_TYPE}" ${MODULE_PRELOAD_ATTRIBUTE}="${preloads.join(" ")}"${after}>`,
    );
}

/** The deferred stylesheet not fetched until the root's script enables it. */
function deferStylesheet(html: string): string {
  return html.replace(DEFERRED_STYLESHEET, "$1 disabled");
}
