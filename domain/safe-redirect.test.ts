import { describe, expect, it } from "vitest";
import { localPathOrNull } from "./safe-redirect.ts";

describe("localPathOrNull", () => {
  it.each([
    "//evil.example",
    "//evil.example/admin",
    "/\\evil.example",
    "\\\\evil.example",
    "\\/evil.example",
    "/.//evil.example",
    "/././/evil.example",
    "/admin/../..//evil.example",
    "/..//evil.example",
    "/%2F%2Fevil.example",
    "/%2f/evil.example",
    "/%5Cevil.example",
    "/%2e%2e//evil.example",
    "/admin//evil.example",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "http://evil.example",
    "https://evil.example/admin",
    "data:text/html,<script>alert(1)</script>",
    "evil.example",
    "admin/estates",
    "",
    "/\t/evil.example",
    "/admin\n//evil.example",
    "/\r/evil.example",
    "/admin\u0000",
    "/admin\u007f",
    "/admin\u2028",
    "/admin estates",
  ])("refuses %j", (value) => {
    expect(localPathOrNull(value)).toBeNull();
  });

  it.each([
    "/",
    "/admin/estates",
    "/admin/estates?x=1#y",
    "/admin/booking-requests?status=New&q=caf%C3%A9",
    "/admin/estates/12?from=2026-05-01",
    "/admin/search?q=a%2Fb",
  ])("accepts %j as it is", (value) => {
    expect(localPathOrNull(value)).toBe(value);
  });

  it("refuses a very long address, and what is not a string", () => {
    expect(localPathOrNull(`/${"a".repeat(3000)}`)).toBeNull();
    expect(localPathOrNull(null)).toBeNull();
    expect(localPathOrNull(undefined)).toBeNull();
  });
});
