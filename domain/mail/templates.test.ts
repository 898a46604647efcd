import { describe, expect, it } from "vitest";
import { LANGUAGES } from "#i18n/config.ts";
import { translate } from "#i18n/translate.ts";
import { REQUEST_STATUSES } from "../requests/options.ts";
import {
  type MailRequest,
  renderExpiry,
  renderGuestConfirmation,
  renderStaffNotification,
  renderStatusChange,
  statusKey,
} from "./templates.ts";

const booking: MailRequest = {
  kind: "booking_request",
  reference: "CST-7K2Q",
  language: "fr",
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
  details: { bookingGoal: "Un mariage pour nos deux familles." },
};
const PUBLIC_URL = "https://castellum.example";

describe("the status-change mail", () => {
  it("tells a French guest the new status by its French name, with the shared reason", () => {
    const reason = 'Le château est complet <ces dates> & "réservé"';
    const mail = renderStatusChange(booking, { status: "Rejected", reason }, null, PUBLIC_URL);
    expect(mail.subject).toBe("Votre demande de réservation CST-7K2Q : Refusée");
    expect(mail.text).toContain("Bonjour,\n");
    expect(mail.text).not.toContain("Ada");
    expect(mail.text).toContain(
      "Le statut de votre demande de réservation CST-7K2Q est désormais : Refusée.",
    );
    expect(mail.text).toContain(`Motif communiqué par notre équipe : ${reason}`);
    expect(mail.text).toContain("Nous sommes désolés de ne pouvoir donner suite à cette demande");
    // No link can be rebuilt: the guest is sent to the one in their confirmation.
    expect(mail.text).toContain("lien figurant dans votre e-mail de confirmation");
    expect(mail.html).toContain('<html lang="fr">');
    expect(mail.html).toContain(
      "Le château est complet &lt;ces dates&gt; &amp; &quot;réservé&quot;",
    );
    expect(mail.html).not.toContain("<ces dates>");
  });

  it("leaves out the reason when staff did not share one, and links the status page if given", () => {
    const url = "https://castellum.example/requests/abc?x=1&y=2";
    const mail = renderStatusChange(
      { ...booking, language: "en" },
      { status: "In progress", reason: null },
      url,
      PUBLIC_URL,
    );
    expect(mail.subject).toBe("Your booking request CST-7K2Q: In progress");
    expect(mail.text).not.toContain("Reason");
    expect(mail.text).toContain("We will keep you informed of any further progress.");
    expect(mail.text).toContain(`Follow its status at any time: ${url}`);
    expect(mail.html).toContain('href="https://castellum.example/requests/abc?x=1&amp;y=2"');
  });

  it("welcomes an accepted member in Chinese", () => {
    const mail = renderStatusChange(
      { ...booking, kind: "membership", language: "zh", firstName: "明" },
      { status: "Accepted" },
      null,
      PUBLIC_URL,
    );
    expect(mail.subject).toBe("您的会员申请（CST-7K2Q）状态更新：已获接纳");
    expect(mail.text).toContain("您好：");
    expect(mail.text).toContain("您的申请已获接纳");
    expect(mail.text).toContain("确认邮件中的链接");
    expect(mail.text).toContain("谨致问候，");
  });

  it.each(LANGUAGES)("names every status in %s", (language) => {
    const names = REQUEST_STATUSES.map((status) => {
      const { subject } = renderStatusChange(
        { ...booking, language },
        { status },
        null,
        PUBLIC_URL,
      );
      expect(subject).not.toContain("mail.statuses");
      return subject;
    });
    // Eight statuses, eight different names.
    expect(new Set(names).size).toBe(REQUEST_STATUSES.length);
  });

  it("maps stored statuses to keys without spaces", () => {
    expect(REQUEST_STATUSES.map(statusKey)).toEqual([
      "new",
      "contacted",
      "inProgress",
      "offered",
      "awaitingDeposit",
      "confirmed",
      "rejected",
      "cancelled",
      "inReview",
      "accepted",
      "declined",
    ]);
  });
});

describe("the staff notification", () => {
  it("is in English unless a staff language is configured", () => {
    expect(renderStaffNotification(booking).subject).toBe(
      "New booking request CST-7K2Q from Ada Lovelace",
    );
    const italian = renderStaffNotification(booking, "it");
    expect(italian.subject).toBe("Nuova richiesta di prenotazione CST-7K2Q da Ada Lovelace");
    expect(italian.text).toContain("Riferimento: CST-7K2Q");
    // The guest's language is named in itself; the guest's own words stay as written.
    expect(italian.text).toContain("Lingua dell’ospite: Français");
    expect(italian.text).toContain("Un mariage pour nos deux familles.");
    expect(italian.html).toContain('<html lang="it">');
  });
});

/**
 * The confirmation goes to whatever address was typed into the form, so it
 * carries no text the sender wrote: only the reference, the kind, the estate and dates (chosen,
 * not typed) and the status link, where the guest reads the rest.
 */
describe("the guest confirmation", () => {
  const MARKER = "Zq9-SENDER-TEXT";
  const statusUrl = "https://castellum.example/requests/abcdefghijklmnopqrstuvwxyz012345?lang=en";
  const sender = {
    firstName: `${MARKER} first`,
    lastName: `${MARKER} last`,
    email: "x@example.com",
  };
  const requests: MailRequest[] = [
    {
      kind: "booking_request",
      reference: "BR-7K2Q-AAAA",
      language: "en",
      ...sender,
      details: {
        ...sender,
        phoneNumber: `+33 ${MARKER}`,
        countryOfResidence: "FR",
        memberStatus: "silver",
        checkInDate: "2027-05-01",
        checkOutDate: "2027-05-04",
        estimatedGuests: 4,
        bookingGoal: `A wedding ${MARKER}`,
        specialRequests: `Vegetarian ${MARKER}`,
      },
    },
    {
      kind: "property_booking",
      reference: "PB-7K2Q-BBBB",
      language: "en",
      ...sender,
      details: {
        ...sender,
        propertyName: "Gordon Castle",
        phone: `+44 ${MARKER}`,
        startDate: "2027-06-10",
        endDate: "2027-06-12",
        numberOfGuests: 2,
        specialRequests: `Late arrival ${MARKER}`,
      },
    },
    {
      kind: "membership",
      reference: "MA-7K2Q-CCCC",
      language: "en",
      ...sender,
      details: {
        ...sender,
        otherClubMemberships: `Club ${MARKER}`,
        linkedinProfile: `https://linkedin.com/in/${MARKER}`,
        instagramHandle: `@${MARKER}`,
        xHandle: `@${MARKER}`,
        reasonToJoin: `Because ${MARKER}`,
      },
    },
  ];

  for (const request of requests)
    for (const language of LANGUAGES)
      it(`carries none of the sender's text: ${request.kind} (${language})`, () => {
        const mail = renderGuestConfirmation({ ...request, language }, statusUrl, PUBLIC_URL);
        for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toContain(MARKER);
        expect(mail.subject).toContain(request.reference);
        expect(mail.text).toContain(statusUrl);
        expect(mail.html).toContain(`href="${statusUrl.replace("&", "&amp;")}"`);
      });

  it("names the estate and the dates, which the guest chose rather than typed", () => {
    const property = renderGuestConfirmation(requests[1]!, statusUrl, PUBLIC_URL);
    expect(property.text).toContain("Gordon Castle");
    expect(property.text).toContain("Jun 10, 2027");
    expect(property.text).toContain("Jun 12, 2027");
    const booking = renderGuestConfirmation(requests[0]!, statusUrl, PUBLIC_URL);
    expect(booking.text).toContain("May 01, 2027");
    expect(booking.text).toContain("May 04, 2027");
  });

  it("greets without the name in the other mails to the guest's address too", () => {
    for (const language of LANGUAGES) {
      const request = { ...requests[0]!, language };
      const changed = renderStatusChange(request, { status: "Contacted" }, statusUrl, PUBLIC_URL);
      const expired = renderExpiry(request, PUBLIC_URL);
      for (const part of [changed.text, changed.html, expired.text, expired.html])
        expect(part).not.toContain(MARKER);
    }
  });
});

/** The privacy notice is the guest's: linked from every mail to a guest, in its language. */
describe("the privacy notice link", () => {
  const statusUrl = `${PUBLIC_URL}/requests/abcdefghijklmnopqrstuvwxyz012345?lang=fr`;

  it.each(LANGUAGES)("ends every mail to a guest, in the mail's language (%s)", (language) => {
    const request = { ...booking, language };
    const url = `${PUBLIC_URL}/privacy?lang=${language}`;
    const label = translate(language, "privacyNotice.link");
    for (const mail of [
      renderGuestConfirmation(request, statusUrl, PUBLIC_URL),
      renderStatusChange(request, { status: "Confirmed" }, statusUrl, PUBLIC_URL),
      renderStatusChange(request, { status: "Rejected" }, null, PUBLIC_URL),
      renderExpiry(request, PUBLIC_URL),
    ]) {
      expect(mail.text.trimEnd().split("\n").at(-1)).toBe(`${label}: ${url}`);
      expect(mail.html).toContain(`<a href="${url}" style="color:#57534e">${label}</a>`);
    }
  });

  it("is not in a mail to staff", () => {
    const mail = renderStaffNotification(booking, "en", `${PUBLIC_URL}/admin/booking-requests`);
    for (const part of [mail.text, mail.html]) expect(part).not.toContain("/privacy");
    expect(mail.text).not.toContain(translate("en", "privacyNotice.link"));
  });
});
