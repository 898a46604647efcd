import { randomUUID } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { guestRequests, mailOutbox } from "#db/schema/index.ts";
import { slugify } from "#domain/catalogue/slug.ts";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import {
  decodeMail,
  expiredAltchaToken,
  isoDate,
  serveIntake,
  solveBotCheck,
  STAFF_EMAIL,
  TestSmtpServer,
  validBookingRequest,
  validMembership,
  validPropertyBooking,
} from "#tests/setup/intake.ts";
import { ErrorSchema, ValidationErrorSchema } from "#domain/api/operation.ts";
import { StoredRequestSchema } from "#domain/requests/requests.contract.ts";
import { readJson } from "#tests/setup/api.ts";
import { anyOf, stringContaining, stringMatching } from "#tests/setup/matchers.ts";

/** A form's 201: the stored record, as StoredRequestSchema reads it. */
const recordOf = (answer: { body: unknown }) => StoredRequestSchema.parse(answer.body);
/** A 400: `{message, errors}`. */
const invalidOf = (answer: { body: unknown }) => ValidationErrorSchema.parse(answer.body);
/** Any refusal's `{message}`. */
const messageOf = (answer: { body: unknown }) => ErrorSchema.parse(answer.body).message;

interface PostOptions {
  token?: string | null;
  key?: string;
  language?: string;
  headers?: Record<string, string>;
}

function poster(baseUrl: () => string) {
  return async (path: string, body: Record<string, unknown>, options: PostOptions = {}) => {
    const token = options.token === undefined ? await solveBotCheck(baseUrl()) : options.token;
    const response = await fetch(`${baseUrl()}/api${path}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "Accept-Language": options.language ?? "en",
        ...(options.key ? { "Idempotency-Key": options.key } : {}),
        ...options.headers,
      },
      body: JSON.stringify({ ...body, ...(token ? { turnstileToken: token } : {}) }),
    });
    return { status: response.status, headers: response.headers, body: await readJson(response) };
  };
}

describeEachBackend("the request endpoints", (database) => {
  const smtp = new TestSmtpServer();
  // Registered before serveIntake's hook, so the app starts with the SMTP server's URL.
  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());
  const server = serveIntake(
    () => database().deps,
    () => ({ SMTP_URL: smtp.url }),
  );
  const post = poster(() => server().url);
  const rows = async (email: string) =>
    (
      await database()
        .deps.db.select({ n: count() })
        .from(guestRequests)
        .where(eq(guestRequests.email, email))
    )[0]?.n ?? 0;

  it("stores a general booking request and answers 201 with the stored record", async () => {
    const answer = await post(
      "/booking-requests",
      validBookingRequest({ email: "one@example.com" }),
    );
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id: stringMatching(/^[0-9a-f-]{36}$/),
      reference: stringMatching(/^BR-[0-9A-Z]{4}-[0-9A-Z]{4}$/),
      status: "New",
      createdAt: anyOf(String),
    });
    expect(Number.isNaN(Date.parse(recordOf(answer).createdAt))).toBe(false);
    expect(await rows("one@example.com")).toBe(1);
  });

  it("answers 400 {message}, not 500, to a body nested 5,000 levels deep or with a NUL", async () => {
    const depth = 5_000;
    const deep = await fetch(`${server().url}/api/booking-requests`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
      body: `{"firstName":${"[".repeat(depth)}${"]".repeat(depth)}}`,
    });
    expect(deep.status).toBe(400);
    expect(await readJson(deep)).toEqual({
      message: stringContaining("nested too deeply"),
      code: "json_too_deep",
    });
    const nul = await post(
      "/booking-requests",
      validBookingRequest({ email: "nul@example.com", firstName: "Ada\u0000" }),
    );
    expect(nul.status).toBe(400);
    expect(messageOf(nul)).toEqual(stringContaining("cannot be stored"));
    expect(invalidOf(nul).errors).toEqual([{ path: "firstName", message: messageOf(nul) }]);
    expect(await rows("nul@example.com")).toBe(0);
  });

  it("takes a malformed cookie as no cookie", async () => {
    const answer = await post(
      "/booking-requests",
      validBookingRequest({ email: "c@example.com" }),
      {
        headers: { Cookie: "castellum_session=%E0%A4%A; lang=%" },
      },
    );
    expect(answer.status).toBe(201);
  });

  it("mails the guest a confirmation and staff a notification", async () => {
    const answer = await post(
      "/booking-requests",
      validBookingRequest({ email: "mail@example.com", firstName: "Mireille" }),
      { language: "fr" },
    );
    expect(answer.status).toBe(201);
    await expect.poll(() => smtp.to("mail@example.com").length, { timeout: 10_000 }).toBe(1);
    const staffMail = () =>
      smtp
        .to(STAFF_EMAIL)
        .map((mail) => decodeMail(mail.raw))
        .find((text) => text.includes(recordOf(answer).reference));
    await expect.poll(staffMail, { timeout: 10_000 }).toBeTruthy();
    expect(staffMail()).toContain("mail@example.com");
    expect(staffMail()).toContain(
      `Subject: New booking request ${recordOf(answer).reference} from Mireille Lovelace`,
    );
    // Straight to the request's details in the staff inbox.
    expect(staffMail()).toContain(
      `Open it in the inbox: http://localhost/admin/booking-requests/booking-requests/${recordOf(answer).id}`,
    );
    const guest = decodeMail(smtp.to("mail@example.com")[0]!.raw);
    expect(guest).toContain(
      `Subject: Nous avons bien reçu votre demande de réservation (${recordOf(answer).reference})`,
    );
    expect(guest).toContain("doit d’abord être validée");
    expect(guest).toContain(recordOf(answer).reference);
    // Sent to an address nobody confirmed: none of the sender's words (decision 0020).
    expect(guest).not.toContain("Mireille");
    expect(guest).toMatch(/http:\/\/localhost\/requests\/[A-Za-z0-9_-]{32}\?lang=fr/);
  });

  it("stores HTML as text and escapes it in the mail", async () => {
    const answer = await post(
      "/booking-requests",
      validBookingRequest({
        email: "html@example.com",
        specialRequests: "<script>alert('x')</script> & <b>bold</b>",
      }),
    );
    expect(answer.status).toBe(201);
    const [row] = await database()
      .deps.db.select()
      .from(guestRequests)
      .where(eq(guestRequests.id, recordOf(answer).id));
    expect(row?.details.specialRequests).toBe("<script>alert('x')</script> & <b>bold</b>");
    // The guest's confirmation carries none of it (decision 0020); staff read it escaped. The
    // mail job makes both from the request's event: wait for a pass of it.
    await server().services.mailWorker.runNow();
    const [confirmation] = await database()
      .deps.db.select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, "html@example.com"));
    expect(confirmation?.html).not.toContain("bold");
    const notification = (
      await database()
        .deps.db.select()
        .from(mailOutbox)
        .where(eq(mailOutbox.recipient, STAFF_EMAIL))
    ).find((mail) => mail.text.includes(recordOf(answer).reference));
    expect(notification?.html).toContain(
      "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;",
    );
    expect(notification?.html).not.toContain("<script>");
  });

  it("trims strings and drops unknown fields", async () => {
    const answer = await post(
      "/booking-requests",
      validBookingRequest({
        email: "  trim@example.com ",
        firstName: "  Ada  ",
        isAdmin: true,
        status: "Confirmed",
      }),
    );
    expect(answer.status).toBe(201);
    const [row] = await database()
      .deps.db.select()
      .from(guestRequests)
      .where(eq(guestRequests.id, recordOf(answer).id));
    expect(row?.email).toBe("trim@example.com");
    expect(row?.firstName).toBe("Ada");
    expect(row?.status).toBe("New");
    expect(row?.details).not.toHaveProperty("isAdmin");
    expect(row?.details).not.toHaveProperty("turnstileToken");
  });

  const RULES: [string, Record<string, unknown>, string, string, string][] = [
    [
      "firstName",
      { firstName: "A" },
      "firstName",
      "First name must be at least 2 characters",
      "Le prénom doit comporter au moins 2 caractères",
    ],
    [
      "lastName",
      { lastName: " " },
      "lastName",
      "Last name must be at least 2 characters",
      "Le nom doit comporter au moins 2 caractères",
    ],
    [
      "email",
      { email: "not-an-address" },
      "email",
      "Please enter a valid email address",
      "Veuillez saisir une adresse e-mail valide",
    ],
    [
      "phoneNumber",
      { phoneNumber: "123" },
      "phoneNumber",
      "Please enter a valid phone number",
      "Veuillez saisir un numéro de téléphone valide",
    ],
    [
      "memberStatus",
      { memberStatus: "" },
      "memberStatus",
      "Please select your member status",
      "Veuillez sélectionner votre statut de membre",
    ],
    [
      "countryOfResidence",
      { countryOfResidence: "XX" },
      "countryOfResidence",
      "Please select your country of residence",
      "Veuillez sélectionner votre pays de résidence",
    ],
    [
      "bookingType",
      { bookingType: [] },
      "bookingType",
      "Please select at least one booking type",
      "Veuillez sélectionner au moins un type de réservation",
    ],
    [
      "checkInDate",
      { checkInDate: "" },
      "checkInDate",
      "Please select a check-in date",
      "Veuillez sélectionner une date d’arrivée",
    ],
    [
      "checkOutDate",
      { checkOutDate: "" },
      "checkOutDate",
      "Please select a check-out date",
      "Veuillez sélectionner une date de départ",
    ],
    [
      "estimatedGuests",
      { estimatedGuests: 0 },
      "estimatedGuests",
      "At least 1 guest is required",
      "Au moins 1 hôte est requis",
    ],
    [
      "adults",
      { adults: 0 },
      "adults",
      "At least 1 adult is required",
      "Au moins 1 adulte est requis",
    ],
    [
      "children",
      { children: -1 },
      "children",
      "The number of children cannot be negative",
      "Le nombre d’enfants ne peut pas être négatif",
    ],
    [
      "bedroomsRequired",
      { bedroomsRequired: 0 },
      "bedroomsRequired",
      "At least 1 bedroom is required",
      "Au moins 1 chambre est requise",
    ],
    [
      "preferredRegion",
      { preferredRegion: [] },
      "preferredRegion",
      "Please select at least one preferred region",
      "Veuillez sélectionner au moins une région préférée",
    ],
    [
      "bookingGoal",
      { bookingGoal: "short" },
      "bookingGoal",
      "Please provide at least 10 characters describing your booking goal",
      "Veuillez décrire le but de votre séjour en 10 caractères au moins",
    ],
    [
      "heardAboutCastellum",
      { heardAboutCastellum: undefined },
      "heardAboutCastellum",
      "Please select how you heard about Castellum",
      "Veuillez indiquer comment vous avez connu Castellum",
    ],
    [
      "check-out before check-in",
      { checkInDate: isoDate(10), checkOutDate: isoDate(9) },
      "checkOutDate",
      "The check-out date cannot be before the check-in date",
      "La date de départ ne peut pas être antérieure à la date d’arrivée",
    ],
    [
      "a past check-in",
      { checkInDate: isoDate(-5) },
      "checkInDate",
      "Dates in the past cannot be chosen",
      "Les dates passées ne peuvent pas être choisies",
    ],
  ];

  it.each(RULES)(
    "refuses %s with its message in English and French",
    async (_rule, change, path, en, fr) => {
      const english = await post("/booking-requests", validBookingRequest(change));
      expect(english.status).toBe(400);
      expect(messageOf(english)).toBe("Validation failed");
      expect(invalidOf(english).errors).toContainEqual({ path, message: en });
      const french = await post("/booking-requests", validBookingRequest(change), {
        language: "fr",
      });
      expect(french.status).toBe(400);
      expect(messageOf(french)).toBe("Échec de la validation");
      const message = invalidOf(french).errors?.find((error) => error.path === path)?.message;
      expect(message).toBe(fr);
    },
  );

  it("does not spend the token on a refused form, so the corrected form goes through", async () => {
    const token = await solveBotCheck(server().url);
    const refused = await post("/booking-requests", validBookingRequest({ firstName: "A" }), {
      token,
    });
    expect(refused.status).toBe(400);
    const accepted = await post(
      "/booking-requests",
      validBookingRequest({ email: "fixed@example.com" }),
      { token },
    );
    expect(accepted.status).toBe(201);
  });

  it("refuses a missing, invalid, replayed or expired bot token with 403", async () => {
    const missing = await post("/booking-requests", validBookingRequest(), { token: null });
    expect(missing.status).toBe(403);
    expect(messageOf(missing)).toBe("Bot protection verification failed. Please try again.");

    const invalid = await post("/booking-requests", validBookingRequest(), {
      token: "bm90IGEgdG9rZW4=",
    });
    expect(invalid.status).toBe(403);

    const token = await solveBotCheck(server().url);
    const first = await post(
      "/booking-requests",
      validBookingRequest({ email: "replay@example.com" }),
      { token },
    );
    expect(first.status).toBe(201);
    const replay = await post(
      "/booking-requests",
      validBookingRequest({ email: "replay2@example.com" }),
      { token },
    );
    expect(replay.status).toBe(403);
    expect(await rows("replay2@example.com")).toBe(0);

    const botCheck = server().services.intake.botCheck;
    if (botCheck.provider !== "altcha") throw new Error("expected ALTCHA");
    const expired = await post("/booking-requests", validBookingRequest(), {
      token: await expiredAltchaToken(botCheck.altcha.hmacSecret),
    });
    expect(expired.status).toBe(403);

    const french = await post("/booking-requests", validBookingRequest(), {
      token: null,
      language: "fr",
    });
    expect(messageOf(french)).not.toBe(messageOf(missing));
  });

  it("accepts the token from the X-Bot-Token header", async () => {
    const token = await solveBotCheck(server().url);
    const answer = await post(
      "/booking-requests",
      validBookingRequest({ email: "header@example.com" }),
      {
        token: null,
        headers: { "X-Bot-Token": token },
      },
    );
    expect(answer.status).toBe(201);
  });

  it("replays the first answer for a retried Idempotency-Key and stores once", async () => {
    const key = randomUUID();
    const body = validBookingRequest({ email: "retry@example.com" });
    const token = await solveBotCheck(server().url);
    const first = await post("/booking-requests", body, { key, token });
    const second = await post("/booking-requests", body, { key, token });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(first.headers.get("idempotent-replayed")).toBe("false");
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await rows("retry@example.com")).toBe(1);

    const conflict = await post("/booking-requests", { ...body, adults: 3 }, { key, token });
    expect(conflict.status).toBe(422);
    expect(messageOf(conflict)).toMatch(/Idempotency-Key was already used/);
  });

  it("stores once when the same key arrives several times at once", async () => {
    const key = randomUUID();
    const body = validBookingRequest({ email: "race@example.com" });
    const token = await solveBotCheck(server().url);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => post("/booking-requests", body, { key, token })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((answer) => recordOf(answer).id)).size).toBe(1);
    expect(await rows("race@example.com")).toBe(1);
  });

  it("stores a property booking, naming the property from the catalogue", async () => {
    const answer = await post("/bookings", validPropertyBooking({ email: "pb@example.com" }));
    expect(answer.status).toBe(201);
    expect(recordOf(answer).reference).toMatch(/^PB-/);
    const [row] = await database()
      .deps.db.select()
      .from(guestRequests)
      .where(eq(guestRequests.id, recordOf(answer).id));
    // The catalogue's name and slug for the estate, not what the client sent.
    const estate = DEMO_CATALOGUE.find((item) => item.id === 1);
    expect(row?.propertyId).toBe(1);
    expect(row?.details).toMatchObject({
      propertyName: estate?.content.en.name,
      propertySlug: estate && slugify(estate.content.en.name),
    });
    expect(row?.details.flexibilityDays).toBe(3);
  });

  it.each([
    [{ propertyId: undefined }, "propertyId", "Property ID is required"],
    [{ propertyId: 999_999 }, "propertyId", "Property not found"],
    [{ firstName: "" }, "firstName", "First name is required"],
    [{ lastName: "" }, "lastName", "Last name is required"],
    [{ phone: "" }, "phone", "Phone number is required"],
    [{ email: "x" }, "email", "Invalid email address"],
    [{ numberOfGuests: 0 }, "numberOfGuests", "At least one guest is required"],
    [{ flexibilityDays: 31 }, "flexibilityDays", "Flexibility must be between 0 and 30 days"],
    [
      { startDate: isoDate(10), endDate: isoDate(8) },
      "endDate",
      "The check-out date cannot be before the check-in date",
    ],
    [{ startDate: isoDate(-3) }, "startDate", "Dates in the past cannot be chosen"],
    [{ endDate: isoDate(600) }, "endDate", "This date is beyond the booking window"],
  ])("refuses a property booking with %o", async (change, path, message) => {
    const answer = await post("/bookings", validPropertyBooking(change));
    expect(answer.status).toBe(400);
    expect(invalidOf(answer).errors).toContainEqual({ path, message });
  });

  it("stores a membership application and checks its rules", async () => {
    const answer = await post("/membership/apply", validMembership({ email: "club@example.com" }));
    expect(answer.status).toBe(201);
    expect(recordOf(answer).reference).toMatch(/^MA-/);
    const refused = await post(
      "/membership/apply",
      validMembership({ title: "", gender: "", interests: [], reasonToJoin: "Too short" }),
      { language: "it" },
    );
    expect(refused.status).toBe(400);
    expect(invalidOf(refused).errors?.map((error) => error.path)).toEqual([
      "title",
      "gender",
      "interests",
      "reasonToJoin",
    ]);
    const english = await post(
      "/membership/apply",
      validMembership({ title: "", reasonToJoin: "x" }),
    );
    expect(invalidOf(english).errors).toEqual([
      { path: "title", message: "Please select a title" },
      {
        path: "reasonToJoin",
        message: "Please tell us in at least 50 characters why you would like to join",
      },
    ]);
  });

  it("answers bad requests with JSON errors", async () => {
    const url = `${server().url}/api/booking-requests`;
    const malformed = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: '{"firstName": "Ada",',
    });
    expect(malformed.status).toBe(400);
    expect(await readJson(malformed)).toEqual({
      message: "The request body is not valid JSON.",
      code: "malformed_json",
    });

    const huge = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": "it" },
      body: JSON.stringify({ specialRequests: "x".repeat(40_000) }),
    });
    expect(huge.status).toBe(413);
    expect(ErrorSchema.parse(await readJson(huge)).message).toMatch(/32kb/);

    const text = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: "hello",
    });
    expect(text.status).toBe(415);
    expect(ErrorSchema.parse(await readJson(text)).message).toMatch(/JSON/);

    const crossSite = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
      body: JSON.stringify(validBookingRequest()),
    });
    expect(crossSite.status).toBe(403);
    expect(ErrorSchema.parse(await readJson(crossSite)).message).toBe(
      "Requests from other websites are not accepted.",
    );

    const badKey = await post("/booking-requests", validBookingRequest(), { key: "has spaces" });
    expect(badKey.status).toBe(400);
  });

  it("keeps requests private: nobody signed out lists or reads them", async () => {
    for (const path of ["/api/booking-requests", "/api/bookings", "/api/membership/applications"]) {
      const response = await fetch(`${server().url}${path}`);
      expect(response.status).toBe(401);
      const body = await readJson(response);
      expect(Array.isArray(body)).toBe(false);
      expect(body).toEqual({ message: "Please sign in to the staff area.", code: "not_signed_in" });
    }
    // The form endpoint itself only takes requests.
    expect((await fetch(`${server().url}/api/membership/apply`)).status).toBe(404);
  });
});
