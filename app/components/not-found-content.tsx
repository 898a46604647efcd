import { useTranslation } from "react-i18next";
import { ButtonLink } from "./ui/button.tsx";

/** The not-found page's content, with the spec's exact heading and text. */
export function NotFoundContent() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto flex max-w-3xl flex-col items-center px-6 py-28 text-center">
      <p aria-hidden className="font-display text-gold text-8xl font-semibold">
        404
      </p>
      <h1 className="text-heritage mt-4 text-4xl font-semibold sm:text-5xl">
        {t("notFound.title")}
      </h1>
      <p className="text-muted mt-4 text-lg">{t("notFound.text")}</p>
      <ButtonLink to="/" className="mt-10">
        {t("notFound.home")}
      </ButtonLink>
    </section>
  );
}
