import { describe, expect, it } from "vitest";
import { pageAddressOf, pageAddressOfPath } from "./page-address.ts";

const at = (path: string) => pageAddressOf(new URL(path, "https://castellum.example"));

describe("the page a sign-in returns to", () => {
  it("is the page, never the data request a client navigation made", () => {
    expect(at("/admin/estates.data")).toBe("/admin/estates");
    expect(at("/admin/booking-requests.data?kind=membership&_routes=routes%2Fadmin%2Flayout")).toBe(
      "/admin/booking-requests?kind=membership",
    );
    expect(at("/admin/booking-requests?status=New&_data=routes%2Fadmin%2Fbooking-requests")).toBe(
      "/admin/booking-requests?status=New",
    );
    expect(at("/admin/mail.data?index")).toBe("/admin/mail");
    expect(at("/_root.data")).toBe("/");
  });

  it("keeps an ordinary page address as it is", () => {
    expect(at("/admin/booking-requests?status=New")).toBe("/admin/booking-requests?status=New");
    expect(at("/admin/estates/12")).toBe("/admin/estates/12");
    expect(pageAddressOfPath("/admin/estates.data")).toBe("/admin/estates");
  });
});
