import { afterAll } from "vitest";
import { closeFileBrowser } from "./browser.ts";

// After every other hook of the file: its Chromium, shared by its describe blocks, closes.
afterAll(closeFileBrowser);
