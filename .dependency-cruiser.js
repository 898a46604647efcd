/**
 * The layers of docs/architecture.md, checked transitively (`npm run lint:deps`, part of
 * `npm run check`): ESLint's no-restricted-imports (eslint.config.js) sees one file's imports;
 * these rules follow every chain of imports, so a layer cannot reach one above it through a
 * third module. Bottom up: db/; then domain/ with i18n/ beside it (domain may use i18n, i18n
 * uses neither); content/; then server/ and app/ on top. Which layer may query the database
 * (only domain/ and db/, not app/ or server routes) is a rule about direct imports: ESLint
 * keeps it, since app/ -> domain/ -> db/ is the intended path.
 */

const WEB_FRAMEWORKS = "^node_modules/(react|react-dom|react-router|@react-router/[^/]+|express)/";

/** A rule that `from` may not reach `to` through any chain of imports. */
const unreachable = (name, comment, from, to) => ({
  name,
  comment,
  severity: "error",
  from: { path: from },
  to: { path: to, reachable: true },
});

/** @type {import("dependency-cruiser").IConfiguration} */
export default {
  forbidden: [
    {
      name: "no-import-circle",
      comment:
        "No module reaches itself through its imports (type imports included): a circle makes load order matter and hides which area depends on which.",
      severity: "error",
      from: { pathNot: "^node_modules/" },
      to: { circular: true, pathNot: "^node_modules/" },
    },
    unreachable(
      "db-is-the-bottom",
      "db/ is the bottom layer: schema, migrations and opening the database.",
      "^db/",
      "^(domain|i18n|content|server|app)/",
    ),
    unreachable(
      "domain-below-content-server-app",
      "domain/ depends on nothing above it: content comes in as data, demo art as a function (server/ wires both).",
      "^domain/",
      "^(content|server|app)/",
    ),
    unreachable(
      "domain-without-web-frameworks",
      "domain/ never sees React, React Router or Express, not even through another module.",
      "^domain/",
      WEB_FRAMEWORKS,
    ),
    unreachable(
      "i18n-beside-domain",
      "i18n/ (language rules, messages, translate) sits beside domain/: domain/ may use it, so it uses no layer but its own (the brand comes from i18n/config.ts).",
      "^i18n/",
      "^(db|domain|content|server|app)/",
    ),
    unreachable(
      "i18n-without-web-frameworks",
      "i18n/ serves domain/ (mail, API texts) too: no React, React Router or Express.",
      "^i18n/",
      WEB_FRAMEWORKS,
    ),
    unreachable(
      "content-below-server-app",
      "content/ (and its CLI) depends on domain/, db/ and i18n/ only; the database settings are in db/open-from-env.ts.",
      "^content/",
      "^(server|app)/",
    ),
    unreachable(
      "app-without-the-server",
      "app/ does not depend on the Express adapter, not even through another module.",
      "^app/",
      "^server/|^node_modules/express/",
    ),
  ],
  options: {
    // Source only: tests and benchmarks may reach across layers to set things up.
    exclude: { path: "\\.test\\.tsx?$|^tests/|^bench/|^build/|^\\.react-router/" },
    doNotFollow: { path: "^node_modules/" },
    // Type-only imports count, as they do for ESLint's no-restricted-imports.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".json"] },
  },
};
