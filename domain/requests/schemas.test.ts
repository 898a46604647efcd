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

describe("the booking form's taken-nights check", () => {
  it("names taken nights even while the bot check's token is still missing", () => {
    const start = addDays(utcToday(), 10);
    const schema = propertyBookingSchema(18, (startDate) =>
      startDate === start ? "The night is not available." : null,
    );
    const result = schema.safeParse({ ...form(start, addDays(start, 2)), turnstileToken: "" });
    const messages = result.error?.issues.map((issue) => [issue.path.join("."), issue.message]);
    expect(messages).toEqual([
      ["turnstileToken", "validation.turnstileRequired"],
      ["startDate", "The night is not available."],
    ]);
    // Free nights: the token alone is missing.
    const free = schema.safeParse({
      ...form(addDays(start, 1), addDays(start, 2)),
      turnstileToken: "",
    });
    expect(free.error?.issues.map((issue) => issue.path.join("."))).toEqual(["turnstileToken"]);
  });
});

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
