import { expect } from "vitest";

/**
 * Vitest's asymmetric matchers as `unknown` rather than `any`: an expected object built with
 * them stays free of `any` (no-unsafe-assignment), and matches exactly as the matcher does.
 */
export const anyOf = (type: unknown): unknown => expect.any(type);
export const stringContaining = (text: string): unknown => expect.stringContaining(text);
export const stringMatching = (pattern: string | RegExp): unknown => expect.stringMatching(pattern);
