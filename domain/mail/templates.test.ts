import { describe, expect, it } from "vitest";
import { LANGUAGES } from "../../i18n/config.ts";
import { REQUEST_STATUSES } from "../requests/options.ts";
import {
  type MailRequest,
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

describe("the status-change mail", () => {
  it("tells a French guest the new status by its French name, with the shared reason", () => {
    const reason = 'Le château est complet <ces dates> & "réservé"';
    const mail = renderStatusChange(booking, { status: "Rejected", reason }, null);
    expect(mail.subject).toBe("Votre demande de réservation CST-7K2Q : Refusée");
    expect(mail.text).toContain("Bonjour Ada,");
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
    );
    expect(mail.subject).toBe("您的会员申请（CST-7K2Q）状态更新：已获接纳");
    expect(mail.text).toContain("尊敬的 明：");
    expect(mail.text).toContain("您的申请已获接纳");
    expect(mail.text).toContain("确认邮件中的链接");
    expect(mail.text).toContain("谨致问候，");
  });

  it.each(LANGUAGES)("names every status in %s", (language) => {
    const names = REQUEST_STATUSES.map((status) => {
      const { subject } = renderStatusChange({ ...booking, language }, { status }, null);
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
      "confirmed",
      "rejected",
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
