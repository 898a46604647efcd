import { expect, it } from "vitest";
import { propertyClaims } from "#db/schema/index.ts";
import { createSession } from "#domain/auth/sessions.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { servePages } from "#tests/setup/pages.ts";
import { rawRequest } from "#tests/setup/raw-http.ts";

const GORDON = { id: 15, name: "Gordon Castle", email: "estate-office@gordon-castle.example" };

/**
 * What a signed-in owner sees on the dashboard page, rendered by the real pages: an owner with
 * no claimed estate is offered to claim one (not a 'Failed to load' page), in their language.
 * The domain says so with a typed error (NoClaimedEstateError), never a translation key.
 */
describeEachBackend("the owner dashboard page", (database) => {
  const site = servePages(() => database().deps);

  /** A session cookie for an owner email (as a proved code opens one). */
  const ownerCookie = async (email: string) => {
    const { token } = await createSession(
      database().deps,
      { role: "owner", ownerEmail: email },
      {},
    );
    return `castellum_session=${token}`;
  };

  it("offers an owner without a claimed estate to claim one, in their language", async () => {
    const cookie = await ownerCookie("nobody@unclaimed-estate.example");
    const english = await rawRequest(`${site.url()}/admin/dashboard`, { Cookie: cookie });
    expect(english.status).toBe(200);
    expect(english.text).toContain('data-testid="no-estate"');
    expect(english.text).toContain("No property claimed yet");
    expect(english.text).toContain('href="/onboard/verify"');

    const french = await rawRequest(`${site.url()}/admin/dashboard?lang=fr`, { Cookie: cookie });
    expect(french.status).toBe(200);
    expect(french.text).toContain("Aucune propriété revendiquée");

    // The API says the same as a documented 404 with the message in the caller's language.
    const api = await fetch(`${site.url()}/api/property-owners/property-details`, {
      headers: { Cookie: cookie },
    });
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({
      message: "No property is claimed with this email address yet.",
      code: "no_claimed_estate",
    });
  });

  it("shows an owner with a claimed estate that estate, not the offer", async () => {
    await database().deps.db.insert(propertyClaims).values({
      propertyId: GORDON.id,
      email: GORDON.email,
    });
    const cookie = await ownerCookie(GORDON.email);
    const answer = await rawRequest(`${site.url()}/admin/dashboard`, { Cookie: cookie });
    expect(answer.status).toBe(200);
    expect(answer.text).not.toContain('data-testid="no-estate"');
    expect(answer.text).toContain(GORDON.name);
  });
});
