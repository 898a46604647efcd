import { describe, expect, it } from "vitest";
import { messageAreasOf, messagesFor } from "./resources.ts";

describe("the messages a page receives", () => {
  it("gives public pages the common messages only", () => {
    expect(messageAreasOf("/")).toEqual([]);
    expect(messageAreasOf("/castles")).toEqual([]);
    expect(messageAreasOf("/administration")).toEqual([]);
    const messages = messagesFor("en", messageAreasOf("/castles"));
    expect(messages).not.toHaveProperty("staff");
    expect(messages).not.toHaveProperty("owner");
    // Nor the guest's request page's: an offer, its payments, the status, the mails' words.
    for (const namespace of ["offers", "requestStatus", "conversation", "lifecycle", "mail"])
      expect(messages, namespace).not.toHaveProperty(namespace);
    expect(messages.forms.submit).toBeTypeOf("string");
  });

  it("gives the guest's request page its own, and the staff and owner areas them too", () => {
    expect(messageAreasOf("/requests/abc")).toEqual(["guestRequest"]);
    expect(messageAreasOf("/requests/abc.data")).toEqual(["guestRequest"]);
    for (const areas of [["guestRequest"], ["staff"], ["owner"]] as const) {
      const messages = messagesFor("zh", areas);
      expect(messages.offers, areas.join()).toBeDefined();
      expect(messages.mail, areas.join()).toBeDefined();
      expect(messages.requestStatus, areas.join()).toBeDefined();
    }
  });

  it("gives the owner pages the owner's messages", () => {
    expect(messageAreasOf("/onboard/verify")).toEqual(["owner"]);
    expect(messageAreasOf("/admin/dashboard")).toEqual(["owner"]);
    expect(messagesFor("fr", ["owner"]).owner?.dashboard.noEmail).toBe(
      "Aucune adresse e-mail disponible",
    );
  });

  it("gives the staff estate pages both, the rest of the staff area the staff's", () => {
    expect(messageAreasOf("/admin/estates")).toEqual(["staff", "owner"]);
    expect(messageAreasOf("/admin/estates/12")).toEqual(["staff", "owner"]);
    expect(messageAreasOf("/admin/booking-requests")).toEqual(["staff"]);
    expect(messageAreasOf("/admin/login")).toEqual(["staff"]);
  });

  it("reads a client navigation's data request as its page", () => {
    expect(messageAreasOf("/admin/dashboard.data")).toEqual(["owner"]);
    expect(messageAreasOf("/onboard/verify.data")).toEqual(["owner"]);
    expect(messageAreasOf("/admin/estates/12.data")).toEqual(["staff", "owner"]);
    expect(messageAreasOf("/_root.data")).toEqual([]);
    expect(messageAreasOf("/admin/dashboard/")).toEqual(["owner"]);
  });
});
