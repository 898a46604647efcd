import type { MetaDescriptor } from "react-router";
import { DEFAULT_LANGUAGE, LANGUAGE_TAGS, LANGUAGES, type Language } from "../i18n/config.ts";

interface RootData {
  language: Language;
  publicUrl: string;
}

/** The address of `path` in `language`: English has no `?lang=`, the others carry theirs. */
export function localizedUrl(publicUrl: string, path: string, language: Language): string {
  return language === DEFAULT_LANGUAGE
    ? `${publicUrl}${path}`
    : `${publicUrl}${path}?lang=${language}`;
}

/**
 * Title, description, canonical link and hreflang alternates of a page, in its language. Every
 * route's `meta` goes through here so crawlers see the same set everywhere.
 */
export function pageMeta(
  args: {
    matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
    location: { pathname: string };
  },
  page: { title: string; description: string; path?: string },
): MetaDescriptor[] {
  const root = args.matches.find((match) => match?.id === "root")?.loaderData as
    RootData | undefined;
  if (!root) return [{ title: page.title }];
  const path = page.path ?? args.location.pathname;
  return [
    { title: page.title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: localizedUrl(root.publicUrl, path, root.language) },
    ...LANGUAGES.map((language) => ({
      tagName: "link",
      rel: "alternate",
      hrefLang: LANGUAGE_TAGS[language],
      href: localizedUrl(root.publicUrl, path, language),
    })),
    { tagName: "link", rel: "alternate", hrefLang: "x-default", href: `${root.publicUrl}${path}` },
  ];
}
