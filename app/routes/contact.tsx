import { useTranslation } from "react-i18next";
import { MessageCircle, Send } from "lucide-react";
import { SITE } from "#content/site.ts";
import type { Route } from "./+types/contact";
import { requestInfoContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { contentPageMeta } from "../page-meta-loader.ts";
import { ExternalLink } from "../components/external-link.tsx";
import { PageFrame, PageHeader } from "../components/page-header.tsx";

export function loader({ context }: Route.LoaderArgs) {
  const { language } = context.get(requestInfoContext);
  return contentPageMeta(language, "contact.title", "meta.contactDescription");
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.title ?? "",
    description: args.loaderData?.description ?? "",
  });

export default function Contact() {
  const { t } = useTranslation();
  const cards = [
    {
      href: SITE.links.x,
      title: t("contact.xTitle"),
      text: t("contact.xText"),
      Icon: MessageCircle,
    },
    {
      href: SITE.links.telegram,
      title: t("contact.telegramTitle"),
      text: t("contact.telegramText"),
      Icon: Send,
    },
  ];
  return (
    <PageFrame>
      <PageHeader title={t("contact.title")} description={t("contact.description")} />
      <ul className="mt-12 grid max-w-4xl gap-6 md:grid-cols-2" data-testid="contact-cards">
        {cards.map(({ href, title, text, Icon }) => (
          <li key={href}>
            <ExternalLink
              href={href}
              className="group border-gold/40 bg-paper shadow-card flex h-full flex-col gap-3 rounded-sm border p-8 transition-shadow hover:shadow-lg"
            >
              <Icon aria-hidden className="text-gold size-8" />
              <span className="font-display text-heritage text-3xl font-semibold group-hover:underline">
                {title}
              </span>
              <span className="text-muted">{text}</span>
            </ExternalLink>
          </li>
        ))}
      </ul>
    </PageFrame>
  );
}
