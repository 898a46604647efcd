import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import Beasties from "beasties";
import type { Logger } from "pino";

/**
 * The first paint of a public page needs no stylesheet round trip (decision 0026):
 * the rules its own HTML uses are inlined in a `<style>` in the head, and the whole stylesheet
 * follows without blocking, as `media="print" data-swap-media="all"`. The root's inline script
 * (app/root.tsx, `SWAP_DEFERRED_STYLES`) turns it to the screen once it has loaded: the site's
 * Content-Security-Policy allows no `onload` attribute. Without JavaScript, a `<noscript>`
 * copy of the link applies the stylesheet as before.
 *
 * Beasties only picks the rules. The page that leaves is React's own HTML with these three
 * insertions, byte for byte otherwise: Beasties re-serialises the whole document, and the
 * browser hydrates what React wrote.
 */
export interface CriticalCss {
  /** The page with its critical rules inlined, or the page unchanged if that fails. */
  inline(html: string): Promise<string>;
}

export const SWAP_ATTRIBUTE = "data-swap-media";

/** The built stylesheets React Router links (fingerprinted, under /assets/). */
const STYLESHEET_LINK = /<link\b[^>]*\brel="stylesheet"[^>]*\bhref="\/assets\/[^"]+\.css"[^>]*>/g;
const STYLE_ELEMENT = /<style\b[^>]*>([\s\S]*?)<\/style>/g;
/** One @font-face rule of a minified stylesheet (its declarations hold no braces). */
const FONT_FACE = /@font-face\s*\{[^{}]*\}/g;

export function createCriticalCss(options: { clientDir: string; log: Logger }): CriticalCss {
  // The built stylesheets never change while the process runs: read each once.
  const stylesheets = new Map<string, Promise<string>>();
  const beasties = new Beasties({
    path: options.clientDir,
    publicPath: "/",
    // The stylesheet stays whole: other pages, and this one after hydration, need the rest.
    pruneSource: false,
    // Beasties keeps the @font-face rules of families it sees named, and ours are named through
    // custom properties (`var(--font-display)`): `fontFaces` adds them all below instead.
    inlineFonts: false,
    preloadFonts: false,
    keyframes: "critical",
    // Selectors Beasties cannot match against the page but that shape it: bare pseudo-elements
    // (the date inputs' `::-webkit-datetime-edit`, from Tailwind's reset), Tailwind's
    // `:where(…)` rules (the borders of `divide-y`, the gaps of `space-y`; 21 rules, 2 KB) and
    // the Chinese pages' `html:lang(zh-Hans)` font stack. The first-paint journey
    // (tests/e2e/first-paint.spec.ts) finds any other such rule the first screen needs.
    allowRules: [/^::/, /^:where\(/, /:lang\(/],
    compress: true,
    reduceInlineStyles: false,
    logLevel: "silent",
  });
  const read = (file: string) => {
    let text = stylesheets.get(file);
    if (!text) {
      text = readFile(file, "utf8");
      stylesheets.set(file, text);
      text.catch(() => stylesheets.delete(file));
    }
    return text;
  };
  beasties.readFile = read;
  /**
   * Every @font-face of the linked stylesheets: declaring a face downloads nothing until text
   * uses it, and without them the display face's metric-matched fallback is missing, so the
   * first screen would shift when the stylesheet lands.
   */
  const fontFaces = async (links: string[]) => {
    const sheets = await Promise.all(
      links.map((link) => read(join(options.clientDir, hrefOf(link)))),
    );
    return sheets.flatMap((css) => css.match(FONT_FACE) ?? []).join("");
  };

  // Rules picked per page shape (`shapeOf`): estate pages in one language mostly share their
  // elements and classes, so Beasties runs once per shape, not at every render.
  const picked = new Map<string, string>();
  const remember = (key: string, critical: string) => {
    if (picked.size >= MAX_SHAPES) picked.delete(picked.keys().next().value!);
    picked.set(key, critical);
  };

  return {
    async inline(html) {
      const links = html.match(STYLESHEET_LINK) ?? [];
      // A link that already names its media is the page's own business.
      if (!links.length || links.some((link) => /\bmedia=/.test(link))) return html;
      const key = shapeOf(html);
      let critical = picked.get(key);
      if (critical === undefined) {
        try {
          const rules = addedStyle(html, await beasties.process(html));
          if (rules) critical = (await fontFaces(links)) + rules;
        } catch (error) {
          options.log.warn({ err: error }, "critical CSS: page sent with its stylesheet only");
        }
        if (critical !== undefined) remember(key, critical);
      }
      if (!critical || critical.includes("</")) return html;
      let isFirst = true;
      return html.replace(STYLESHEET_LINK, (link) => {
        const deferred = `${deferredLink(link)}<noscript>${link}</noscript>`;
        if (!isFirst) return deferred;
        isFirst = false;
        return `<style>${critical}</style>${deferred}`;
      });
    },
  };
}

/** Page shapes whose rules are kept; a few dozen exist (routes × states), bounded anyway. */
const MAX_SHAPES = 500;
const TAG = /<([a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const ATTRIBUTE = /([^\s=/]+)(?:="([^"]*)")?/g;
/** Attributes whose values differ from page to page and that no selector of ours reads. */
const CONTENT_ATTRIBUTES = new Set([
  "href",
  "src",
  "srcset",
  "imagesrcset",
  "sizes",
  "alt",
  "title",
  "content",
  "nonce",
  "value",
  "placeholder",
  "datetime",
  "style",
  "width",
  "height",
  "aria-label",
  "data-testid",
]);

/**
 * What decides which rules a page matches, as a key: the set of distinct elements it holds,
 * each as its tag with its attributes and their values. Left out are the text, the values
 * that only carry content (CONTENT_ATTRIBUTES), and how many of each element there are and
 * where: what differs between two estates' pages. Rules that depend on position (`>`,
 * `:last-child`) are Tailwind's dividers and gaps, which `allowRules` keeps whole.
 */
export function shapeOf(html: string): string {
  const elements = new Set<string>();
  for (const [, tag, attributes] of html.matchAll(TAG)) {
    let element = tag!;
    for (const [, written, value] of attributes!.matchAll(ATTRIBUTE)) {
      // React writes some names in camel case (`srcSet`); HTML's are case-insensitive.
      const name = written!.toLowerCase();
      element += CONTENT_ATTRIBUTES.has(name) ? ` ${name}` : ` ${name}=${value ?? ""}`;
    }
    elements.add(element);
  }
  return createHash("sha256")
    .update([...elements].sort().join("\n"))
    .digest("base64");
}

function hrefOf(link: string): string {
  return link.match(/\bhref="([^"]+)"/)![1]!;
}

/** `<link … media="print" data-swap-media="all"/>`: loaded, but not waited for. */
function deferredLink(link: string): string {
  const end = link.endsWith("/>") ? -2 : -1;
  return `${link.slice(0, end)} media="print" ${SWAP_ATTRIBUTE}="all"${link.slice(end)}`;
}

/** The text of the `<style>` Beasties added to the page, if it added one. */
function addedStyle(before: string, after: string): string | undefined {
  const existing = new Set([...before.matchAll(STYLE_ELEMENT)].map((match) => match[1]));
  return [...after.matchAll(STYLE_ELEMENT)]
    .map((match) => match[1]!)
    .find((text) => text.trim() && !existing.has(text));
}
