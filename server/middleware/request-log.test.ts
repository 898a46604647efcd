import { describe, expect, it } from "vitest";
import { loggableUrl } from "./request-log.ts";

describe("loggableUrl", () => {
  it("keeps the secret of an export feed and of a guest's status page out of the log", () => {
    expect(loggableUrl("/api/ical/12.c2VjcmV0LXRva2Vu.ics")).toBe("/api/ical/[redacted]");
    expect(loggableUrl("/requests/tok3n-Secret?lang=fr")).toBe("/requests/[redacted]?lang=fr");
    expect(loggableUrl("/requests/tok3n-Secret.data")).toBe("/requests/[redacted]");
  });

  it("leaves other addresses whole", () => {
    expect(loggableUrl("/castles?region=scotland")).toBe("/castles?region=scotland");
    expect(loggableUrl("/api/booking-requests/requests/x")).toBe(
      "/api/booking-requests/requests/x",
    );
  });
});
