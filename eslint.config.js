import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * Layer boundaries of STYLE.md, bottom up: db/ (schema, client), domain/ (the rules), content/
 * (demo catalogue, site texts, demo art), then server/ and app/ on top. Only domain/ and db/
 * touch the database; nothing imports a layer above its own.
 */
/**
 * An import that climbs two folders or more names its folder instead (package.json "imports").
 * In these gitignore-style patterns a leading # starts a comment, hence the escaped "\\#db/*".
 */
const NO_CLIMBING = {
  group: ["../../*"],
  message:
    "Import across folders by alias (#domain/…, #app/…, #server/…, #db/…), not a chain of ../.",
};
const DB_RULES = {
  patterns: [
    NO_CLIMBING,
    {
      group: [
        "**/domain/**",
        "\\#domain/*",
        "**/content/**",
        "\\#content/*",
        "**/app/**",
        "\\#app/*",
        "**/server/**",
        "\\#server/*",
      ],
      message: "db/ is the bottom layer: schema, migrations and opening the database.",
    },
  ],
};
const DOMAIN_RULES = {
  patterns: [
    NO_CLIMBING,
    {
      group: ["react", "react-dom", "react-dom/*", "react-router", "@react-router/*"],
      message: "domain/ never sees React or React Router.",
    },
    { group: ["express"], message: "domain/ never sees Request or Response." },
    {
      group: [
        "**/app/**",
        "\\#app/*",
        "**/server/**",
        "\\#server/*",
        "**/content/**",
        "\\#content/*",
      ],
      message:
        "domain/ depends on nothing above it: content comes in as data, demo art as a function (server/ wires both).",
    },
  ],
};
const CONTENT_RULES = {
  patterns: [
    NO_CLIMBING,
    {
      group: ["**/app/**", "\\#app/*", "**/server/**", "\\#server/*"],
      message:
        "content/ (and its CLI) depends on domain/, db/ and i18n/ only; the database settings are in db/open-from-env.ts.",
    },
  ],
};
const APP_RULES = {
  patterns: [
    NO_CLIMBING,
    {
      group: ["drizzle-orm", "drizzle-orm/*", "pg", "@electric-sql/*", "**/db/**", "\\#db/*"],
      message: "Pages call domain functions; only domain/ touches the database.",
    },
    {
      group: ["express", "**/server/**", "\\#server/*"],
      message: "app/ does not depend on the Express adapter.",
    },
    {
      group: ["**/domain/deps.ts", "\\#domain/deps.ts"],
      message: "Loaders get the domain functions they need (app/context.ts), never the database.",
    },
  ],
};
const SERVER_RULES = {
  patterns: [
    NO_CLIMBING,
    {
      group: ["drizzle-orm", "drizzle-orm/*"],
      message: "Routes call domain functions; queries live in domain/.",
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      "build/",
      "bench/blank/build/",
      ".react-router/",
      "data/",
      "node_modules/",
      "db/migrations/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      // Type-aware rules: the TypeScript program of tsconfig.json (decision 0004).
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/no-namespace": ["error", { allowDeclarations: true }],
      // A translation key names a text, not an outcome: branch on the error's class or `code`.
      "no-restricted-syntax": [
        "error",
        {
          selector:
            "BinaryExpression[operator=/^[!=]==?$/] > MemberExpression[property.name='messageKey']",
          message:
            "Do not compare a translation key: branch on the domain error's class or code (domain/errors.ts).",
        },
        {
          selector: "SwitchStatement > MemberExpression.discriminant[property.name='messageKey']",
          message:
            "Do not switch on a translation key: branch on the domain error's class or code (domain/errors.ts).",
        },
      ],
      // React calls event handlers and ignores what they return; an async handler is fine there.
      "@typescript-eslint/no-misused-promises": [
        "error",
        { checksVoidReturn: { attributes: false } },
      ],
      // Loaders and actions throw redirect() and data() answers: React Router's control flow.
      "@typescript-eslint/only-throw-error": [
        "error",
        {
          allow: [
            { from: "lib", name: "Response" },
            { from: "package", package: "react-router", name: "DataWithResponseInit" },
          ],
        },
      ],
      // The no-unsafe-* rules are on: JSON bodies are `unknown` until a schema reads them (tests
      // read /api answers with their operation's schemas, tests/setup/api.ts). Not on yet, each
      // a clean-up of its own: no-unnecessary-type-assertion, unbound-method,
      // no-base-to-string, require-await, prefer-promise-reject-errors.
      "@typescript-eslint/no-unnecessary-type-assertion": "off",
      "@typescript-eslint/unbound-method": "off",
      "@typescript-eslint/no-base-to-string": "off",
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/prefer-promise-reject-errors": "off",
    },
  },
  {
    // This file is JavaScript outside the TypeScript program: no type information for it.
    files: ["**/*.js"],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // Tests, benchmarks and scripts too; the layers below add their own rules to this one.
    files: ["**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [NO_CLIMBING] }] },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "no-restricted-imports": ["error", APP_RULES],
    },
  },
  {
    files: ["domain/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", DOMAIN_RULES] },
  },
  {
    files: ["content/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", CONTENT_RULES] },
  },
  {
    files: ["db/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-imports": ["error", DB_RULES] },
  },
  {
    files: ["server/**/*.ts"],
    ignores: ["**/*.test.ts", "server/deps.ts"],
    rules: { "no-restricted-imports": ["error", SERVER_RULES] },
  },
);
