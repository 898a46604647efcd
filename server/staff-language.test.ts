import { eq } from "drizzle-orm";
import { beforeAll, expect, it } from "vitest";
import { staffUsers } from "#db/schema/index.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { servePages } from "#tests/setup/pages.ts";
import { createTestStaff, signIn, STAFF_PASSWORD, staffCall } from "#tests/setup/staff.ts";

/**
 * A page address with `?lang=` shows the staff area in that language and
 * stores nothing; only the POST the staff language menu makes changes the account's language.
 */
describeEachBackend("the staff area's language", (database) => {
  const site = servePages(() => database().deps);
  const EMAIL = "lang-admin@castellum.test";
  beforeAll(async () => {
    await createTestStaff(database().deps, EMAIL, { isAdmin: true, language: "en" });
  });

  async function storedLanguage(): Promise<string | undefined> {
    const [row] = await database()
      .deps.db.select({ language: staffUsers.language })
      .from(staffUsers)
      .where(eq(staffUsers.email, EMAIL));
    return row?.language;
  }

  it("shows a page in the language of ?lang= without storing it for the account", async () => {
    const cookie = await signIn(site.url(), EMAIL);
    const page = await fetch(`${site.url()}/admin/booking-requests?lang=zh`, {
      headers: { Cookie: cookie },
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html[^>]* lang="zh/);
    expect(await storedLanguage()).toBe("en");
  });

  it("stores the account's language only through the same-origin POST", async () => {
    const cookie = await signIn(site.url(), EMAIL);
    const body = { language: "it" };
    const foreign = await staffCall(site.url(), "POST", "/api/admin/language", {
      cookie,
      body,
      headers: { Origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    const anonymous = await staffCall(site.url(), "POST", "/api/admin/language", { body });
    expect(anonymous.status).toBe(401);
    const invalid = await staffCall(site.url(), "POST", "/api/admin/language", {
      cookie,
      body: { language: "xx" },
    });
    expect(invalid.status).toBe(400);
    expect(await storedLanguage()).toBe("en");

    const stored = await staffCall(site.url(), "POST", "/api/admin/language", { cookie, body });
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual({ ok: true });
    expect(await storedLanguage()).toBe("it");
    // The next sign-in opens the staff area in it.
    const again = await fetch(`${site.url()}/api/admin/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: EMAIL, password: STAFF_PASSWORD }),
    });
    expect(again.headers.getSetCookie().some((c) => c.startsWith("lang=it"))).toBe(true);
  });
});
