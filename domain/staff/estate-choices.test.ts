import { randomUUID } from "node:crypto";
import { beforeEach, expect, it } from "vitest";
import { guestRequests } from "#db/schema/index.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import { hashStatusToken, makeReference, makeStatusToken } from "../requests/intake/reference.ts";
import type { RequestKind } from "../requests/options.ts";
import { listBookedEstateChoices } from "./inbox.ts";

const [FIRST, SECOND, THIRD] = DEMO_CATALOGUE;

describeEachBackend("the inbox's estate filter", (database) => {
  const deps = () => database().deps;
  beforeEach(() => deps().db.delete(guestRequests));

  async function request(kind: RequestKind, propertyId: number | null) {
    const email = `guest-${randomUUID().slice(0, 8)}@example.com`;
    await deps()
      .db.insert(guestRequests)
      .values({
        id: randomUUID(),
        kind,
        reference: makeReference(kind),
        language: "en",
        email,
        firstName: "Camille",
        lastName: "Durand",
        propertyId,
        details: { firstName: "Camille", lastName: "Durand", email },
        statusTokenHash: hashStatusToken(makeStatusToken()),
      });
  }

  it("offers the estates with property bookings, not the whole catalogue", async () => {
    await request("property_booking", FIRST!.id);
    await request("property_booking", FIRST!.id);
    await request("property_booking", SECOND!.id);
    // A general request assigned to an estate is not a property booking of it.
    await request("booking_request", THIRD!.id);
    const choices = await listBookedEstateChoices(deps(), { language: "fr" });
    expect(choices.map((choice) => choice.id).sort()).toEqual([FIRST!.id, SECOND!.id].sort());
    // Named in the page's language, in its alphabetical order.
    const names = [FIRST!, SECOND!].map((estate) => estate.content.fr.name);
    expect(choices.map((choice) => choice.name)).toEqual(
      names.sort((a, b) => a.localeCompare(b, "fr")),
    );
  });

  it("keeps the estate already chosen, even without bookings, and offers none when none is booked", async () => {
    expect(await listBookedEstateChoices(deps(), { language: "en" })).toEqual([]);
    expect(await listBookedEstateChoices(deps(), { language: "en", include: THIRD!.id })).toEqual([
      { id: THIRD!.id, name: THIRD!.content.en.name },
    ]);
  });
});
