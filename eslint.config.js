import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Layer boundaries of STYLE.md: rules live in domain/, only domain/ and db/ touch the database. */
const DOMAIN_RULES = {
  patterns: [
    {
      group: ["react", "react-dom", "react-dom/*", "react-router", "@react-router/*"],
      message: "domain/ never sees React or React Router.",
    },
    { group: ["express"], message: "domain/ never sees Request or Response." },
    { group: ["**/app/**", "**/server/**"], message: "domain/ depends on nothing above it." },
  ],
};
const APP_RULES = {
  patterns: [
    {
      group: ["drizzle-orm", "drizzle-orm/*", "pg", "@electric-sql/*", "**/db/**"],
      message: "Pages call domain functions; only domain/ touches the database.",
    },
    { group: ["express", "**/server/**"], message: "app/ does not depend on the Express adapter." },
  ],
};
const SERVER_RULES = {
  patterns: [
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
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/no-namespace": ["error", { allowDeclarations: true }],
    },
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
    files: ["server/**/*.ts"],
    ignores: ["**/*.test.ts", "server/deps.ts"],
    rules: { "no-restricted-imports": ["error", SERVER_RULES] },
  },
);
