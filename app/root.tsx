import { lazy, Suspense, useEffect, useMemo } from "react";
import { I18nextProvider } from "react-i18next";
import {
  isRouteErrorResponse,
  type ShouldRevalidateFunctionArgs,
  Links,
  Meta,
  matchPath,
  Outlet,
  useLocation,
  useMatches,
  useNavigation,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import { SITE } from "#content/site.ts";
import { LANGUAGE_TAGS } from "#i18n/config.ts";
import { createI18n } from "#i18n/instance.ts";
import { messageAreasOf } from "#i18n/message-areas.ts";
import { messagesFor } from "#i18n/resources.ts";
import type { Route } from "./+types/root";
import "./app.css";
// The same file app.css's @font-face names (Vite emits one asset per file): preloaded below.
import displayFontLatin from "@fontsource-variable/cormorant-garamond/files/cormorant-garamond-latin-wght-normal.woff2?url";
import { translate } from "#i18n/translate.ts";
import { cspNonceContext, publicPagesContext, requestInfoContext } from "./context.ts";
import { shareImageOf } from "./share-image.ts";
import { BookingPageSkeleton } from "./components/booking-skeleton.tsx";
import { NavigationProgress } from "./components/navigation-progress.tsx";
import { NotFoundContent } from "./components/not-found-content.tsx";
import { SiteFooter } from "./components/site-footer.tsx";
import { SiteHeader } from "./components/site-header.tsx";
import { useToasts } from "./hooks/use-toast.ts";
import { START_AFTER_FIRST_SCREEN } from "./first-screen.ts";
import { markHydrated } from "./hydration.ts";
import type { PageHandle } from "./page-handle.ts";

/** The staff area has its own layout and messages; the public chrome stays off its pages. */
export function isStaffPath(pathname: string): boolean {
  return pathname === "/admin" || pathname.startsWith("/admin/");
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const { language, publicUrl } = context.get(requestInfoContext);
  const featured = await context.get(publicPagesContext).getFeaturedImage();
  return {
    shareImage: featured ? shareImageOf(featured, translate(language, "meta.shareImageAlt")) : null,
    language,
    // Only this language's messages travel to the browser.
    messages: messagesFor(language, messageAreasOf(new URL(request.url).pathname)),
    publicUrl,
    year: new Date().getFullYear(),
    // The page's CSP nonce, for the one inline script the root writes itself.
    nonce: context.get(cspNonceContext),
  };
}

/**
 * zod's settings, set before any module runs: it parses without compiling code (the CSP allows
 * no eval, and its probe, a caught `new Function` as each object schema is built, is still
 * reported as a violation). zod reads this global when its module first runs.
 */
const ZOD_JITLESS =
  "globalThis.__zod_globalConfig=Object.assign(globalThis.__zod_globalConfig||{},{jitless:true});";

/** Language changes are the only reason to reload the root data. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  const changesLanguage = nextUrl.searchParams.get("lang") !== currentUrl.searchParams.get("lang");
  // Entering or leaving the staff or owner area changes which messages the page needs.
  const changesArea =
    messageAreasOf(nextUrl.pathname).join() !== messageAreasOf(currentUrl.pathname).join();
  return (changesLanguage || changesArea) && defaultShouldRevalidate;
}

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
];

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const language = data?.language ?? "en";
  const nonce = data?.nonce;
  const lcpIsImage = useMatches().some((match) => (match.handle as PageHandle)?.lcpIsImage);
  return (
    <html lang={LANGUAGE_TAGS[language]}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1F3D2B" />
        {/* The display face's Latin subset, fetched with the HTML rather than after the CSS, so
            headings are drawn in it from the first paint (no swap, no shift). Chinese pages use
            the system CJK stack and never download it; rarer scripts load by unicode-range.
            Pages whose largest paint is a photo leave the bandwidth to it (decision 0026). */}
        {language !== "zh" && !lcpIsImage && (
          <link
            rel="preload"
            href={displayFontLatin}
            as="font"
            type="font/woff2"
            crossOrigin="anonymous"
          />
        )}
        <Meta />
        <Links />
        {/* Before any module script (React Router's is async): zod compiles no code under our
            CSP. Inline, so it runs as parsed; the response cache allows it by its hash. After
            <Links />, so the deferred stylesheet is already in the document; it also starts a
            public page's deferred module script after the first screen (app/first-screen.ts). */}
        <script
          nonce={nonce ?? undefined}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: ZOD_JITLESS + START_AFTER_FIRST_SCREEN }}
        />
      </head>
      <body className="flex min-h-screen flex-col">
        {children}
        {/* Both inline scripts carry the request's CSP nonce, the default <ServerRouter nonce>
            gives every nonce-aware component (app/entry.server.tsx). */}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

function Providers({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const language = data?.language ?? "en";
  const messages = data?.messages;
  const i18n = useMemo(() => createI18n(language, messages ?? {}), [language, messages]);
  return <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;
}

function Page({ children }: { children: React.ReactNode }) {
  const location = useLocation();
  const data = useRouteLoaderData<typeof loader>("root");
  // Runs once the first render has hydrated: later renders are client-side navigations.
  useEffect(markHydrated, []);
  if (isStaffPath(location.pathname))
    return (
      <Providers>
        <NavigationProgress />
        {children}
        <DeferredToaster />
      </Providers>
    );
  return (
    <Providers>
      <NavigationProgress />
      <SiteHeader />
      <main id="main" className="flex-1" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter year={data?.year} />
      <DeferredToaster />
    </Providers>
  );
}

const Toaster = lazy(() =>
  import("./components/toaster.tsx").then((m) => ({ default: m.Toaster })),
);

/** The notification region, loaded with the first toast rather than with every page. */
function DeferredToaster() {
  const hasToasts = useToasts().length > 0;
  if (!hasToasts) return null;
  return (
    <Suspense fallback={null}>
      <Toaster />
    </Suspense>
  );
}

export default function App() {
  const navigation = useNavigation();
  // The booking page's loading skeleton while its property loads.
  const loadingBooking =
    navigation.state === "loading" &&
    matchPath("/booking/:idOrSlug", navigation.location.pathname) !== null;
  return <Page>{loadingBooking ? <BookingPageSkeleton /> : <Outlet />}</Page>;
}

/** Errors no route handled. A thrown 404 shows the not-found page; anything else, a notice. */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("root");
  if (!data) {
    // The root loader itself failed: no translations, so a plain, brand-only page.
    return <p className="p-8">{SITE.brand}</p>;
  }
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Page>
        <NotFoundContent />
      </Page>
    );
  }
  return (
    <Page>
      <GenericError />
    </Page>
  );
}

function GenericError() {
  const data = useRouteLoaderData<typeof loader>("root");
  return (
    <section className="mx-auto max-w-3xl px-6 py-24 text-center">
      <h1 className="text-heritage text-4xl font-semibold">{data?.messages.errors.genericTitle}</h1>
      <p className="text-muted mt-4">{data?.messages.errors.generic}</p>
    </section>
  );
}
