import { useTranslation } from "react-i18next";
import { localize, ROADMAP } from "#content/site-content.ts";
import type { Route } from "./+types/roadmap";
import { requestInfoContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { contentPageMeta } from "../page-meta-loader.ts";
import { PageFrame, PageHeader } from "../components/page-header.tsx";

export function loader({ context }: Route.LoaderArgs) {
  const { language } = context.get(requestInfoContext);
  const quarters = ROADMAP.quarters.map(({ quarter, items }) => {
    const [year = "", q = ""] = quarter.split("-Q");
    return {
      quarter,
      year,
      number: q,
      items: items.map((item) => ({
        key: item.key,
        title: localize(item.title, language),
        description: localize(item.description, language),
      })),
    };
  });
  return { quarters, ...contentPageMeta(language, "roadmap.title", "meta.roadmapDescription") };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.title ?? "",
    description: args.loaderData?.description ?? "",
  });

/** The roadmap's timeline, quarter by quarter. */
export default function Roadmap({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <PageFrame>
      <PageHeader title={t("roadmap.title")} description={t("roadmap.description")} />
      <ol className="border-gold/50 relative mt-14 max-w-4xl border-l-2 pl-8" data-testid="roadmap">
        {loaderData.quarters.map((quarter) => (
          <li key={quarter.quarter} className="relative pb-14 last:pb-0">
            <span
              aria-hidden
              className="border-gold bg-ivory absolute top-2 -left-[41px] size-4 rotate-45 border-2"
            />
            <h2 className="text-heritage text-4xl font-semibold">
              {t("roadmap.quarter", { quarter: quarter.number, year: quarter.year })}
            </h2>
            <ul className="mt-5 grid gap-4 sm:grid-cols-2">
              {quarter.items.map((item) => (
                <li
                  key={item.key}
                  className="border-gold/30 bg-paper shadow-card rounded-sm border p-5"
                >
                  <h3 className="text-heritage text-xl font-semibold">{item.title}</h3>
                  <p className="text-muted mt-1 text-sm leading-relaxed">{item.description}</p>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
    </PageFrame>
  );
}
