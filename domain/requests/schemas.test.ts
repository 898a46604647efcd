import { describe, expect, it } from "vitest";
import { addMonths, earliestBookableDate, lastBookableDate, utcToday } from "./dates.ts";
import { propertyBookingSchema } from "./property-booking.schema.ts";

const form = (startDate: string, endDate: string) => ({
  propertyId: 1,
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  phone: "+44 20 7946 0000",
  startDate,
  endDate,
  numberOfGuests: 2,
  turnstileToken: "token",
});

describe("the property booking window", () => {
  it("accepts the last day the page's date picker offers, and refuses the day after", () => {
    const last = lastBookableDate(18);
    const schema = propertyBookingSchema(18);
    expect(schema.safeParse(form(last, last)).success).toBe(true);
    expect(last).toBe(addMonths(utcToday(), 18));
    const refused = schema.safeParse(form(utcToday(), addDays(last, 1)));
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe("validation.dateBeyondWindow");
  });

  it("accepts today wherever the guest is, and refuses the day before yesterday", () => {
    const schema = propertyBookingSchema(18);
    expect(schema.safeParse(form(utcToday(), utcToday())).success).toBe(true);
    expect(schema.safeParse(form(earliestBookableDate(), utcToday())).success).toBe(true);
    const tooEarly = schema.safeParse(form(addDays(utcToday(), -2), utcToday()));
    expect(tooEarly.error?.issues[0]?.message).toBe("validation.dateInPast");
  });
});

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
