import { useTranslation } from "react-i18next";
import { listProperties } from "../../domain/catalogue/read-properties.ts";
import { SITE } from "../../content/site.ts";
import { translate } from "../../i18n/translate.ts";
import type { Route } from "./+types/home";
import { depsContext, requestInfoContext } from "../context.ts";
import { pageMeta } from "../meta.ts";
import { ResponsiveImage } from "../components/responsive-image.tsx";
import { ButtonLink } from "../components/ui/button.tsx";

export async function loader({ context }: Route.LoaderArgs) {
  const { language } = context.get(requestInfoContext);
  const [first] = await listProperties(context.get(depsContext), { language });
  return {
    heroImage: first?.images[1] ?? first?.images[0] ?? null,
    title: translate(language, "meta.defaultTitle"),
    description: translate(language, "meta.defaultDescription"),
  };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.title ?? SITE.brand,
    description: args.loaderData?.description ?? "",
  });

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <section className="bg-heritage relative isolate flex min-h-[78vh] items-end overflow-hidden">
      {loaderData.heroImage && (
        <ResponsiveImage
          image={loaderData.heroImage}
          alt=""
          sizes="100vw"
          isEager
          isHighPriority
          pictureClassName="absolute inset-0 -z-10"
          className="size-full object-cover"
        />
      )}
      <div
        aria-hidden
        className="from-ink/85 via-ink/45 to-ink/10 absolute inset-0 -z-10 bg-gradient-to-t"
      />
      <div className="mx-auto w-full max-w-7xl px-6 pt-32 pb-20">
        <img src="/brand/crest.svg" alt="" width={72} height={72} className="size-18" />
        <h1 className="text-ivory mt-6 max-w-3xl text-5xl leading-tight font-semibold sm:text-7xl">
          {t("home.title")}
        </h1>
        <p className="text-ivory/90 mt-6 max-w-2xl text-lg leading-relaxed">{t("home.subtitle")}</p>
        <div className="mt-10 flex flex-wrap gap-4">
          <ButtonLink to="/castles" variant="light" size="lg">
            {t("home.bookStay")}
          </ButtonLink>
          <ButtonLink to="/tokensale" size="lg" className="border-ivory/60 border">
            {t("home.joinUs")}
          </ButtonLink>
          <ButtonLink to="/whitepaper" variant="onDark" size="lg">
            {t("home.learnMore")}
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}
