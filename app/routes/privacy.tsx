import { Fragment } from "react";
import { useTranslation } from "react-i18next";
import { fillPlaceholders, localize, PRIVACY_NOTICE } from "#content/site-content.ts";
import type { Localized } from "#content/site-content.schema.ts";
import { LANGUAGE_TAGS, type Language } from "#i18n/config.ts";
import type { Route } from "./+types/privacy";
import { requestInfoContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { contentPageMeta } from "../page-meta-loader.ts";
import { PageFrame, PageHeader } from "../components/page-header.tsx";

export function loader({ context }: Route.LoaderArgs) {
  const { language, privacyContactEmail, guestDataRetentionDays, financialRecordsYears } =
    context.get(requestInfoContext);
  // The address and the periods are the operator's settings, never figures written into the
  // content: the notice says what the code does.
  const values = {
    contactEmail: privacyContactEmail,
    retention: duration(language, guestDataRetentionDays),
    financialRecords: duration(language, financialRecordsYears * 365),
  };
  const text = (localized: Localized) => fillPlaceholders(localize(localized, language), values);
  return {
    contactEmail: privacyContactEmail,
    updated: {
      iso: PRIVACY_NOTICE.updated,
      text: new Intl.DateTimeFormat(LANGUAGE_TAGS[language], {
        dateStyle: "long",
        timeZone: "UTC",
      }).format(new Date(`${PRIVACY_NOTICE.updated}T00:00:00Z`)),
    },
    sections: PRIVACY_NOTICE.sections.map((section) => ({
      key: section.key,
      title: text(section.title),
      paragraphs: section.paragraphs.map(text),
      items: section.items?.map(text) ?? [],
      closing: section.closing?.map(text) ?? [],
    })),
    ...contentPageMeta(language, "privacyNotice.title", "meta.privacyDescription"),
  };
}

/** `days` in words: whole years when it is some ("2 years", "2 ans", "2年"), else days. */
function duration(language: Language, days: number): string {
  const years = days / 365;
  const [value, unit] = Number.isInteger(years) ? [years, "year"] : [days, "day"];
  return new Intl.NumberFormat(LANGUAGE_TAGS[language], {
    style: "unit",
    unit,
    unitDisplay: "long",
    maximumFractionDigits: 2,
  }).format(value);
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.title ?? "",
    description: args.loaderData?.description ?? "",
  });

/** A paragraph of the notice, its contact address a link that opens a mail to it. */
function NoticeText({ text, contactEmail }: { text: string; contactEmail: string }) {
  const parts = text.split(contactEmail);
  return parts.map((part, index) => (
    <Fragment key={index}>
      {part}
      {index < parts.length - 1 && (
        <a
          href={`mailto:${contactEmail}`}
          className="text-heritage font-medium [overflow-wrap:anywhere] underline underline-offset-4"
          data-testid="privacy-contact"
        >
          {contactEmail}
        </a>
      )}
    </Fragment>
  ));
}

export default function Privacy({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { contactEmail, updated, sections } = loaderData;
  return (
    <PageFrame>
      <PageHeader title={t("privacyNotice.title")} description={t("privacyNotice.description")} />
      <p className="text-muted mt-4 text-sm">
        <time dateTime={updated.iso}>{t("privacyNotice.updated", { date: updated.text })}</time>
      </p>
      <div className="mt-12 grid gap-12 lg:grid-cols-[1fr_3fr]">
        <nav aria-labelledby="contents-heading" className="lg:sticky lg:top-32 lg:self-start">
          <h2
            id="contents-heading"
            className="text-muted text-xs font-semibold tracking-[0.14em] uppercase"
          >
            {t("whitepaper.contents")}
          </h2>
          <ol className="mt-3 space-y-2 text-sm">
            {sections.map((section) => (
              <li key={section.key}>
                <a
                  href={`#${section.key}`}
                  className="text-heritage underline-offset-4 hover:underline"
                >
                  {section.title}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        <article className="max-w-3xl space-y-12" data-testid="privacy-notice">
          {sections.map((section) => (
            <section key={section.key} id={section.key} className="scroll-mt-32">
              <h2 className="text-heritage text-3xl font-semibold">{section.title}</h2>
              {section.paragraphs.map((paragraph, index) => (
                <p key={index} className="mt-4 leading-relaxed">
                  <NoticeText text={paragraph} contactEmail={contactEmail} />
                </p>
              ))}
              {section.items.length > 0 && (
                <ul className="marker:text-gold mt-4 list-disc space-y-2 pl-6 leading-relaxed">
                  {section.items.map((item, index) => (
                    <li key={index}>
                      <NoticeText text={item} contactEmail={contactEmail} />
                    </li>
                  ))}
                </ul>
              )}
              {section.closing.map((paragraph, index) => (
                <p key={index} className="mt-4 leading-relaxed">
                  <NoticeText text={paragraph} contactEmail={contactEmail} />
                </p>
              ))}
            </section>
          ))}
        </article>
      </div>
    </PageFrame>
  );
}
