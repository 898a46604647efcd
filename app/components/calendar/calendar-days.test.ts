import { describe, expect, it } from "vitest";
import type { EstateCalendarAnswer } from "#domain/calendar/calendar.contract.ts";
import { kindsOf, nightsOf } from "./calendar-days.ts";

const request = (reference: string, start: string, end: string) => ({
  requestId: "00000000-0000-4000-8000-000000000001",
  collection: "bookings" as const,
  reference,
  status: "Confirmed" as const,
  start,
  end,
  guestName: null,
  guests: 2,
});

const calendar: EstateCalendarAnswer = {
  propertyId: 1,
  from: "2027-05-01",
  to: "2027-06-01",
  // Began before the window: only its nights inside are shown.
  stays: [request("CAS-STAY", "2027-04-28", "2027-05-03")],
  tentative: [{ ...request("CAS-WAIT", "2027-05-02", "2027-05-04"), status: "New" }],
  unplaced: [],
  blocks: [
    {
      id: "00000000-0000-4000-8000-000000000002",
      start: "2027-05-10",
      end: "2027-05-12",
      kind: "maintenance",
      note: null,
      createdBy: "staff",
      removable: true,
    },
  ],
  external: [
    {
      id: "00000000-0000-4000-8000-000000000003",
      start: "2027-05-11",
      end: "2027-05-14",
      feedId: "00000000-0000-4000-8000-000000000004",
      summary: null,
    },
  ],
  collisions: [
    {
      external: {
        id: "00000000-0000-4000-8000-000000000003",
        start: "2027-05-11",
        end: "2027-05-14",
        feedId: "00000000-0000-4000-8000-000000000004",
        summary: null,
      },
      collidesWith: {
        id: "00000000-0000-4000-8000-000000000002",
        source: "block",
        reference: null,
        kind: "maintenance",
        start: "2027-05-10",
        end: "2027-05-12",
      },
    },
  ],
  icalUrl: "https://castellum.example/api/ical/1.x.ics",
};

describe("the nights of a calendar window", () => {
  const nights = nightsOf(calendar);
  const kinds = (date: string) => kindsOf(nights.get(date));

  it("holds each entry's nights inside the window, the check-out day free", () => {
    expect([...nights.keys()].sort()).toEqual([
      "2027-05-01",
      "2027-05-02",
      "2027-05-03",
      "2027-05-10",
      "2027-05-11",
      "2027-05-12",
      "2027-05-13",
    ]);
    expect(kinds("2027-05-01")).toEqual(["stay"]);
    expect(kinds("2027-05-02")).toEqual(["stay", "tentative"]);
    expect(nights.get("2027-05-02")).toMatchObject({
      stays: ["CAS-STAY"],
      tentative: ["CAS-WAIT"],
    });
    expect(kinds("2027-05-03")).toEqual(["tentative"]);
    expect(kinds("2027-05-04")).toEqual([]);
  });

  it("marks as a collision only the nights an imported busy time shares with a block or stay", () => {
    expect(kinds("2027-05-10")).toEqual(["block"]);
    expect(kinds("2027-05-11")).toEqual(["collision", "block", "external"]);
    expect(kinds("2027-05-12")).toEqual(["external"]);
  });
});
