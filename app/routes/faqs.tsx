import { useTranslation } from "react-i18next";
import { ChevronDown } from "lucide-react";
import { FAQ, fillPlaceholders, localize } from "#content/site-content.ts";
import { tokenomicsFigures } from "#domain/tokenomics/figures.ts";
import type { Route } from "./+types/faqs";
import { requestInfoContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { contentPageMeta } from "../page-meta-loader.ts";
import { PageFrame, PageHeader } from "../components/page-header.tsx";

export function loader({ context }: Route.LoaderArgs) {
  const { language } = context.get(requestInfoContext);
  // Figures come from the tokenomics module, so the FAQ never contradicts /tokenomics.
  const figures = tokenomicsFigures(language);
  const items = FAQ.items.map((item) => ({
    key: item.key,
    question: fillPlaceholders(localize(item.question, language), figures),
    answer: fillPlaceholders(localize(item.answer, language), figures),
  }));
  return { items, ...contentPageMeta(language, "faq.title", "meta.faqDescription") };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.title ?? "",
    description: args.loaderData?.description ?? "",
    jsonLd: args.loaderData
      ? {
          "@context": "https://schema.org",
          "@type": "FAQPage",
          mainEntity: args.loaderData.items.map((item) => ({
            "@type": "Question",
            name: item.question,
            acceptedAnswer: { "@type": "Answer", text: item.answer },
          })),
        }
      : undefined,
  });

/**
 * One item open at most, and the open one can be closed again. Native
 * `<details name>` gives exactly that (an exclusive accordion) with no JavaScript, keyboard
 * and screen-reader support included.
 */
export default function Faqs({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <PageFrame>
      <PageHeader title={t("faq.title")} description={t("faq.description")} />
      <div
        className="divide-gold/30 border-gold/30 mt-12 max-w-4xl divide-y border-y"
        data-testid="faq"
      >
        {loaderData.items.map((item) => (
          <details key={item.key} name="faq" className="group">
            <summary className="font-display text-heritage hover:text-heritage-light flex cursor-pointer list-none items-center justify-between gap-6 py-5 text-left text-2xl font-semibold [&::-webkit-details-marker]:hidden">
              <h2>{item.question}</h2>
              <ChevronDown
                aria-hidden
                className="text-gold size-5 shrink-0 transition-transform duration-200 group-open:rotate-180"
              />
            </summary>
            <p className="text-muted pb-6 leading-relaxed">{item.answer}</p>
          </details>
        ))}
      </div>
    </PageFrame>
  );
}
