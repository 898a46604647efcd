import { describe, expect, it } from "vitest";
import { loggableUrl } from "./request-log.ts";

/** The secret each address carries; none of them may reach the log. */
const SECRET = "tok3n-S3cret_value";

describe("loggableUrl", () => {
  it.each([
    // An estate's export feed: its secret opens the calendar.
    [`/api/ical/12.${SECRET}.ics`, "/api/ical/[redacted]"],
    // A guest's status page, its data request and the reply from it.
    [`/requests/${SECRET}?lang=fr`, "/requests/[redacted]?lang=fr"],
    [`/requests/${SECRET}.data`, "/requests/[redacted]"],
    [`/api/requests/${SECRET}/messages?lang=it`, "/api/requests/[redacted]/messages?lang=it"],
    // Express matches paths whatever their case: so does the redaction.
    [`/Requests/${SECRET}`, "/Requests/[redacted]"],
    [`/API/ICAL/${SECRET}.ics`, "/API/ICAL/[redacted]"],
    // The first admin's setup link, and an invitation and a password reset, by path
    // or by query.
    [`/admin/setup?token=${SECRET}`, "/admin/setup?token=[redacted]"],
    [`/admin/setup.data?lang=zh&token=${SECRET}`, "/admin/setup.data?lang=zh&token=[redacted]"],
    [`/admin/invitation/${SECRET}`, "/admin/invitation/[redacted]"],
    [`/admin/invitation/${SECRET}.data?lang=fr`, "/admin/invitation/[redacted]?lang=fr"],
    [`/admin/password-reset/${SECRET}`, "/admin/password-reset/[redacted]"],
    [`/api/admin/invitations/${SECRET}/accept`, "/api/admin/invitations/[redacted]/accept"],
    [`/api/admin/password-reset/${SECRET}`, "/api/admin/password-reset/[redacted]"],
    [`/admin/invitation?token=${SECRET}`, "/admin/invitation?token=[redacted]"],
    // Any code, secret or token in a query, whatever the page and however it is spelt.
    [`/owners?code=${SECRET}&lang=it`, "/owners?code=[redacted]&lang=it"],
    [`/x?secret=${SECRET}`, "/x?secret=[redacted]"],
    [`/x?access_token=${SECRET}&b=1`, "/x?access_token=[redacted]&b=1"],
    [`/x?setupToken=${SECRET}`, "/x?setupToken=[redacted]"],
    [`/x?TOKEN=${SECRET}`, "/x?TOKEN=[redacted]"],
    [`/x?%74oken=${SECRET}`, "/x?%74oken=[redacted]"],
    [`/x?token=a&token=${SECRET}`, "/x?token=[redacted]&token=[redacted]"],
    [`/x?token[]=${SECRET}`, "/x?token[]=[redacted]"],
    [`/x?password=${SECRET}`, "/x?password=[redacted]"],
    [`/x?a=1&code`, "/x?a=1&code"],
  ])("redacts %s", (url, logged) => {
    expect(loggableUrl(url)).toBe(logged);
    expect(loggableUrl(url)).not.toContain(SECRET);
  });

  it("keeps the tokens of staff invitation and password-reset links out of the log", () => {
    const token = "AbCdEfGhIjKlMnOpQrStUv";
    expect(loggableUrl(`/admin/invitation/${token}?lang=zh`)).toBe(
      "/admin/invitation/[redacted]?lang=zh",
    );
    expect(loggableUrl(`/admin/password-reset/${token}.data`)).toBe(
      "/admin/password-reset/[redacted]",
    );
    expect(loggableUrl(`/api/admin/invitations/${token}`)).toBe(
      "/api/admin/invitations/[redacted]",
    );
    expect(loggableUrl(`/api/admin/password-reset/${token}`)).toBe(
      "/api/admin/password-reset/[redacted]",
    );
    // The forgotten-password request itself carries no secret.
    expect(loggableUrl("/api/admin/password-reset")).toBe("/api/admin/password-reset");
  });

  it("keeps a guest's name or address, searched for or looked up, out of the log", () => {
    expect(loggableUrl("/admin/booking-requests?q=Camille%20Durand&status=New")).toBe(
      "/admin/booking-requests?q=[redacted]&status=New",
    );
    expect(loggableUrl("/api/booking-requests/export.csv?q=camille%40example.fr")).toBe(
      "/api/booking-requests/export.csv?q=[redacted]",
    );
    expect(loggableUrl("/api/admin/personal-data?email=camille%40example.fr")).toBe(
      "/api/admin/personal-data?email=[redacted]",
    );
  });

  it("leaves other addresses whole", () => {
    for (const url of [
      "/castles?region=scotland",
      "/api/booking-requests/requests/x",
      "/admin/booking-requests?status=New&lang=fr",
      "/admin/setup",
      "/castles/chateau-d-aramont?checkIn=2026-05-01#photos",
    ])
      expect(loggableUrl(url)).toBe(url);
  });
});
