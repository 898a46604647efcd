import type { MetaDescriptor } from "react-router";
import { SITE } from "#content/site.ts";
import { DEFAULT_LANGUAGE, LANGUAGE_TAGS, LANGUAGES, type Language } from "#i18n/config.ts";

interface RootData {
  language: Language;
  publicUrl: string;
  shareImage: ShareImage | null;
}

export interface ShareImage {
  /** A path on this site (e.g. a /media URL). */
  path: string;
  width: number;
  height: number;
  alt: string;
}

/** Open Graph locales of the four languages. */
const OG_LOCALES: Record<Language, string> = { en: "en_GB", fr: "fr_FR", it: "it_IT", zh: "zh_CN" };

/** The address of `path` in `language`: English has no `?lang=`, the others carry theirs. */
export function localizedUrl(publicUrl: string, path: string, language: Language): string {
  return language === DEFAULT_LANGUAGE
    ? `${publicUrl}${path}`
    : `${publicUrl}${path}?lang=${language}`;
}

/**
 * Title, description, canonical link, hreflang alternates, Open Graph and Twitter card tags of
 * a page, in its language. Every route's `meta` goes through here, so crawlers and link
 * previews see the same set everywhere without running JavaScript.
 */
export function pageMeta(
  args: {
    matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
    location: { pathname: string };
  },
  page: {
    title: string;
    description: string;
    path?: string;
    /** The title in link previews, when it differs from the document title. */
    shareTitle?: string;
    image?: ShareImage;
    type?: "website" | "article";
    jsonLd?: Record<string, unknown>;
  },
): MetaDescriptor[] {
  const root = args.matches.find((match) => match?.id === "root")?.loaderData as
    RootData | undefined;
  if (!root) return [{ title: page.title }];
  const path = page.path ?? args.location.pathname;
  const url = localizedUrl(root.publicUrl, path, root.language);
  const image = page.image ?? root.shareImage;
  const shareTitle = page.shareTitle ?? page.title;
  return [
    { title: page.title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    ...LANGUAGES.map((language) => ({
      tagName: "link",
      rel: "alternate",
      hrefLang: LANGUAGE_TAGS[language],
      href: localizedUrl(root.publicUrl, path, language),
    })),
    { tagName: "link", rel: "alternate", hrefLang: "x-default", href: `${root.publicUrl}${path}` },
    { property: "og:site_name", content: SITE.brand },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: shareTitle },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    { property: "og:locale", content: OG_LOCALES[root.language] },
    ...LANGUAGES.filter((language) => language !== root.language).map((language) => ({
      property: "og:locale:alternate",
      content: OG_LOCALES[language],
    })),
    ...(image
      ? [
          { property: "og:image", content: `${root.publicUrl}${image.path}` },
          { property: "og:image:width", content: String(image.width) },
          { property: "og:image:height", content: String(image.height) },
          { property: "og:image:alt", content: image.alt },
          { name: "twitter:image", content: `${root.publicUrl}${image.path}` },
          { name: "twitter:image:alt", content: image.alt },
        ]
      : []),
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
    { name: "twitter:title", content: shareTitle },
    { name: "twitter:description", content: page.description },
    ...(page.jsonLd ? [{ "script:ld+json": page.jsonLd }] : []),
  ];
}
