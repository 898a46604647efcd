import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestLogger } from "#tests/setup/error-log.ts";
import { createCriticalCss, type CriticalCss, shapeOf } from "./critical-css.ts";

const FALLBACK_FACE =
  "@font-face{font-family:Display Fallback;src:local(Times New Roman);size-adjust:96.2%}";
const STYLESHEET = [
  FALLBACK_FACE,
  ":root{--font-display:Display,Display Fallback,serif}",
  "h1{font-family:var(--font-display)}",
  ".hero{color:#1f3d2b;padding:2rem}",
  ".footer-only{color:red}",
  "@media (min-width:48rem){.hero{padding:4rem}.footer-only{margin:1px}}",
  ".card:hover{outline:1px solid}",
  "html:lang(zh-Hans){--font-display:Noto Serif SC,serif}",
  "::-webkit-datetime-edit{padding-block:0}",
  ":where(.divide-y>:not(:last-child)){border-bottom-width:1px}",
].join("\n");

/** A page as React writes it: self-closing links, a nonce, the stylesheet in the head. */
const page = (head: string, body = '<section class="hero">Welcome</section>') =>
  `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>${head}` +
  `<script nonce="abc">globalThis.x=1;</script></head><body>${body}</body></html>`;
const LINK = '<link nonce="abc" rel="stylesheet" href="/assets/root-test.css"/>';

describe("critical CSS", () => {
  let dir = "";
  let critical: CriticalCss;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "critical-css-"));
    await mkdir(join(dir, "assets"));
    await writeFile(join(dir, "assets/root-test.css"), STYLESHEET);
    critical = createCriticalCss({ clientDir: dir, log: createTestLogger() });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("inlines the rules the page uses, and only those", async () => {
    const out = await critical.inline(page(LINK));
    const style = out.match(/<style>([^<]*)<\/style>/)?.[1];
    expect(style).toContain(".hero{color:#1f3d2b;padding:2rem}");
    expect(style).toContain("@media (min-width:48rem){.hero{padding:4rem}}");
    expect(style).not.toContain("footer-only");
  });

  it("keeps the rules no selector engine can match on the page but the browser applies", async () => {
    const out = await critical.inline(page(LINK));
    const style = out.match(/<style>([^<]*)<\/style>/)?.[1];
    // The Chinese pages' font stack, and the reset of every date input's inner fields.
    expect(style).toContain("html:lang(zh-Hans){--font-display:Noto Serif SC,serif}");
    expect(style).toContain("::-webkit-datetime-edit{padding-block:0}");
    // Tailwind's dividers between an element's children.
    expect(style).toContain(":where(.divide-y>:not(:last-child)){border-bottom-width:1px}");
  });

  it("declares the stylesheet's font faces, named through custom properties as they are", async () => {
    const out = await critical.inline(page(LINK, '<h1 class="hero">Welcome</h1>'));
    const style = out.match(/<style>([^<]*)<\/style>/)?.[1];
    expect(style).toContain("h1{font-family:var(--font-display)}");
    // Without the fallback's metrics the first screen shifts when the stylesheet lands.
    expect(style).toContain(FALLBACK_FACE);
  });

  it("defers the stylesheet without an event handler, with a link for pages without scripts", async () => {
    const out = await critical.inline(page(LINK));
    expect(out).toContain(
      '<link nonce="abc" rel="stylesheet" href="/assets/root-test.css" media="print" data-swap-media="all"/>' +
        `<noscript>${LINK}</noscript>`,
    );
    // The policy allows no inline handler: an `onload` would leave the stylesheet unapplied.
    expect(out).not.toContain("onload");
  });

  it("leaves React's HTML as written but for the style, the deferral and the fallback", async () => {
    const html = page(LINK, '<p class="hero">A &amp; B <br/> &#x27;quoted&#x27;</p>');
    const out = await critical.inline(html);
    const undone = out
      .replace(/<style>[^<]*<\/style>/, "")
      .replace(' media="print" data-swap-media="all"', "")
      .replace(`<noscript>${LINK}</noscript>`, "");
    expect(undone).toBe(html);
  });

  it("picks rules once per page shape, and afresh for a page with other elements", async () => {
    const estate = (name: string, href: string) =>
      page(LINK, `<section class="hero"><a href="${href}">${name}</a></section>`);
    // Two estates' pages: other text and addresses, the same elements.
    expect(shapeOf(estate("Gordon Castle", "/a"))).toBe(shapeOf(estate("Villa Ada", "/b")));
    // A page with one more kind of element (a footer) is another shape, with its own rules.
    const withFooter = page(LINK, '<section class="hero">x</section><p class="footer-only">y</p>');
    expect(shapeOf(withFooter)).not.toBe(shapeOf(estate("Gordon Castle", "/a")));
    await critical.inline(estate("Gordon Castle", "/a"));
    const style = (await critical.inline(withFooter)).match(/<style>([^<]*)<\/style>/)?.[1];
    expect(style).toContain(".footer-only{color:red}");
    // The language is part of the shape: `:lang()` rules differ between them.
    expect(shapeOf(estate("x", "/a"))).not.toBe(
      shapeOf(estate("x", "/a").replace('lang="en"', 'lang="zh-Hans"')),
    );
  });

  it("sends a page unchanged when it links no built stylesheet, or one with its own media", async () => {
    const bare = page("");
    expect(await critical.inline(bare)).toBe(bare);
    const printOnly = page(
      '<link rel="stylesheet" href="/assets/root-test.css" media="print"/>',
      '<p class="hero">x</p>',
    );
    expect(await critical.inline(printOnly)).toBe(printOnly);
  });

  it("sends a page unchanged when its stylesheet cannot be read", async () => {
    const missing = page('<link rel="stylesheet" href="/assets/gone.css"/>');
    expect(await critical.inline(missing)).toBe(missing);
  });
});
