import { describe, expect, it } from "vitest";
import { DEFERRED_MODULE_TYPE } from "#app/first-screen.ts";
import { deferLoading } from "./deferred-loading.ts";
import { inlineScriptHashes } from "./middleware/security-headers.ts";

/** A public page as React Router and critical-css.ts leave it. */
const ROUTE_SCRIPT =
  ';\nimport * as route0 from "/assets/root-a.js";\n' +
  'window.__reactRouterRouteModules = {"root":route0};\nimport("/assets/entry.client-b.js");';
const page = (head: string, body: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>${head}</head><body>${body}</body></html>`;
const HEAD =
  '<link rel="modulepreload" href="/assets/entry.client-b.js" nonce="abc"/>' +
  '<link rel="modulepreload" href="/assets/framework-c.js" nonce="abc"/>' +
  '<style>p{color:red}</style><link nonce="abc" rel="stylesheet" href="/assets/root-d.css" media="print" data-swap-media="all"/>' +
  '<noscript><link nonce="abc" rel="stylesheet" href="/assets/root-d.css"/></noscript>';
const BODY =
  '<main><p>Hello</p></main><script nonce="abc">window.__reactRouterContext = {};</script>' +
  `<script nonce="abc" type="module" async="">${ROUTE_SCRIPT}</script>`;

describe("what a public page loads after its first screen", () => {
  it("leaves the route's module script inert, with its preloads listed on it", () => {
    const out = deferLoading(page(HEAD, BODY));
    expect(out).not.toContain('rel="modulepreload"');
    expect(out).not.toContain('type="module"');
    expect(out).toContain(
      `<script nonce="abc" type="${DEFERRED_MODULE_TYPE}" data-modulepreload="/assets/entry.client-b.js /assets/framework-c.js" async="">${ROUTE_SCRIPT}</script>`,
    );
    // The classic inline scripts (React Router's hand-over, the streamed data) run as parsed.
    expect(out).toContain('<script nonce="abc">window.__reactRouterContext = {};</script>');
  });

  it("holds the deferred stylesheet, not the one for pages without scripts", () => {
    const out = deferLoading(page(HEAD, BODY));
    expect(out).toContain(
      '<link nonce="abc" rel="stylesheet" href="/assets/root-d.css" media="print" data-swap-media="all" disabled/>',
    );
    expect(out).toContain(
      '<noscript><link nonce="abc" rel="stylesheet" href="/assets/root-d.css"/></noscript>',
    );
  });

  it("keeps the script allowed on a stored page: its hash is listed like a module's", () => {
    const live = page(HEAD, BODY);
    expect(inlineScriptHashes(deferLoading(live))).toEqual(inlineScriptHashes(live));
  });

  it("sends a page without a module script unchanged", () => {
    const html = page('<link rel="stylesheet" href="/assets/root-d.css"/>', "<p>Not found</p>");
    expect(deferLoading(html)).toBe(html);
  });
});
