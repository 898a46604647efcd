import { describe, expect, it } from "vitest";
import { guestRequests } from "../../db/schema/index.ts";
import {
  BOOKING_STATUSES,
  MEMBERSHIP_STATUSES,
  REQUEST_STATUSES,
  STATUS_KEYS,
  statusesOf,
} from "../requests/options.ts";

describe("request statuses", () => {
  it("are the same list in the database schema and the domain", () => {
    expect(guestRequests.status.enumValues).toEqual([...REQUEST_STATUSES]);
  });

  it("give each kind its own set, every status with a translation key", () => {
    expect(statusesOf("booking_request")).toEqual(BOOKING_STATUSES);
    expect(statusesOf("property_booking")).toEqual(BOOKING_STATUSES);
    expect(statusesOf("membership")).toEqual(MEMBERSHIP_STATUSES);
    expect(Object.keys(STATUS_KEYS).sort()).toEqual([...REQUEST_STATUSES].sort());
  });
});
