import { describe, expect, it } from "vitest";
import { loginRedirect } from "./require-admin.server.ts";

describe("the staff area's way to sign-in", () => {
  it("returns to the page after a client navigation's data request found the session over", () => {
    const answer = loginRedirect(new URL("https://castellum.example/admin/estates.data"));
    const location = new URL(answer.headers.get("Location")!, "https://castellum.example");
    expect(location.pathname).toBe("/admin/login");
    expect(location.searchParams.get("redirectTo")).toBe("/admin/estates");
  });

  it("keeps the page's own search", () => {
    const answer = loginRedirect(
      new URL("https://castellum.example/admin/booking-requests.data?status=New&_routes=x"),
    );
    const location = new URL(answer.headers.get("Location")!, "https://castellum.example");
    expect(location.searchParams.get("redirectTo")).toBe("/admin/booking-requests?status=New");
  });
});
