import { useTranslation } from "react-i18next";
import { Download } from "lucide-react";
import { fillPlaceholders, localize, WHITEPAPER } from "#content/site-content.ts";
import { whitepaperPdfLanguage } from "#domain/whitepaper/render-whitepaper-pdf.ts";
import { tokenomicsFigures } from "#domain/tokenomics/figures.ts";
import { LANGUAGE_NAMES } from "#i18n/config.ts";
import type { Route } from "./+types/whitepaper";
import { requestInfoContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { contentPageMeta } from "../page-meta-loader.ts";
import { PageFrame, PageHeader } from "../components/page-header.tsx";
import { buttonVariants } from "../components/ui/button.tsx";

export function loader({ context }: Route.LoaderArgs) {
  const { language, whitepaperUrl } = context.get(requestInfoContext);
  const figures = tokenomicsFigures(language);
  const pdfLanguage = whitepaperPdfLanguage(language);
  return {
    // A configured whitepaper replaces the site's own PDF.
    pdfUrl: whitepaperUrl ?? `/whitepaper.pdf?lang=${pdfLanguage}`,
    pdfLanguageName: whitepaperUrl || pdfLanguage === language ? null : LANGUAGE_NAMES[pdfLanguage],
    sections: WHITEPAPER.sections.map((section) => ({
      key: section.key,
      heading: localize(section.heading, language),
      paragraphs: section.paragraphs.map((paragraph) =>
        fillPlaceholders(localize(paragraph, language), figures),
      ),
    })),
    ...contentPageMeta(language, "whitepaper.title", "meta.whitepaperDescription"),
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.title ?? "",
    description: args.loaderData?.description ?? "",
  });

export default function Whitepaper({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <PageFrame>
      <PageHeader title={t("whitepaper.title")} description={t("whitepaper.description")} />
      <div className="mt-8 flex flex-wrap items-center gap-4">
        <a
          href={loaderData.pdfUrl}
          download
          className={buttonVariants({ size: "lg" })}
          data-testid="whitepaper-download"
        >
          <Download aria-hidden className="size-4" />
          {t("whitepaper.download")}
        </a>
        {loaderData.pdfLanguageName && (
          <span className="text-muted text-sm">
            {t("whitepaper.pdfLanguageNote", { language: loaderData.pdfLanguageName })}
          </span>
        )}
      </div>
      <div className="mt-14 grid gap-12 lg:grid-cols-[1fr_3fr]">
        <nav aria-labelledby="contents-heading" className="lg:sticky lg:top-32 lg:self-start">
          <h2
            id="contents-heading"
            className="text-muted text-xs font-semibold tracking-[0.14em] uppercase"
          >
            {t("whitepaper.contents")}
          </h2>
          <ol className="mt-3 space-y-2 text-sm">
            {loaderData.sections.map((section) => (
              <li key={section.key}>
                <a
                  href={`#${section.key}`}
                  className="text-heritage underline-offset-4 hover:underline"
                >
                  {section.heading}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        <article className="max-w-3xl space-y-12">
          {loaderData.sections.map((section) => (
            <section key={section.key} id={section.key} className="scroll-mt-32">
              <h2 className="text-heritage text-3xl font-semibold">{section.heading}</h2>
              {section.paragraphs.map((paragraph, index) => (
                <p key={index} className="mt-4 leading-relaxed">
                  {paragraph}
                </p>
              ))}
            </section>
          ))}
        </article>
      </div>
    </PageFrame>
  );
}
