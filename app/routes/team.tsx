import { useTranslation } from "react-i18next";
import { localize, TEAM } from "#content/site-content.ts";
import { portraitImage } from "#content/demo-art/team-portraits.ts";
import type { Route } from "./+types/team";
import { requestInfoContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { contentPageMeta } from "../page-meta-loader.ts";
import { ExternalLink } from "../components/external-link.tsx";
import { PageFrame, PageHeader } from "../components/page-header.tsx";
import { ResponsiveImage } from "../components/responsive-image.tsx";

export function loader({ context }: Route.LoaderArgs) {
  const { language } = context.get(requestInfoContext);
  return {
    members: TEAM.members.map((member) => ({
      key: member.key,
      name: member.name,
      title: localize(member.title, language),
      description: localize(member.description, language),
      linkedIn: member.linkedIn,
      twitter: member.twitter ?? null,
      portrait: portraitImage(member),
    })),
    ...contentPageMeta(language, "team.title", "meta.teamDescription"),
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.title ?? "",
    description: args.loaderData?.description ?? "",
  });

/** The team grid (max-w-7xl, px-4 then px-6, gap-8; 1, 2 from 640 px, 4 from 1024 px). */
const PORTRAIT_SIZES =
  "(min-width: 1280px) 284px, (min-width: 1024px) calc((100vw - 144px) / 4), (min-width: 640px) calc((100vw - 80px) / 2), calc(100vw - 32px)";

export default function Team({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <PageFrame>
      <PageHeader title={t("team.title")} description={t("team.description")} />
      <ul className="mt-12 grid grid-cols-1 gap-8 sm:grid-cols-2 lg:grid-cols-4" data-testid="team">
        {loaderData.members.map((member, index) => (
          <li
            key={member.key}
            className="bg-paper shadow-card flex flex-col overflow-hidden rounded-sm"
          >
            <div className="bg-heritage/10 aspect-square">
              <ResponsiveImage
                image={member.portrait}
                alt={t("team.portraitAlt", { name: member.name })}
                sizes={PORTRAIT_SIZES}
                isEager={index < 4}
                // The first portrait is the page's largest paint on a phone: fetched first, and
                // the page's code waits for it (app/first-screen.ts).
                fetchPriority={index === 0 ? "high" : undefined}
                className="size-full object-cover"
              />
            </div>
            <div className="flex flex-1 flex-col p-5">
              <h2 className="text-heritage text-2xl font-semibold">{member.name}</h2>
              <p className="text-burgundy text-xs font-semibold tracking-[0.14em] uppercase">
                {member.title}
              </p>
              <p className="text-muted mt-3 flex-1 text-sm leading-relaxed">{member.description}</p>
              <div className="mt-4 flex gap-4 text-sm">
                <ExternalLink
                  href={member.linkedIn}
                  className="text-heritage underline-offset-4 hover:underline"
                  aria-label={t("team.linkedIn", { name: member.name })}
                >
                  LinkedIn
                </ExternalLink>
                {member.twitter && (
                  <ExternalLink
                    href={member.twitter}
                    className="text-heritage underline-offset-4 hover:underline"
                    aria-label={t("team.x", { name: member.name })}
                  >
                    X
                  </ExternalLink>
                )}
              </div>
            </div>
          </li>
        ))}
      </ul>
    </PageFrame>
  );
}
