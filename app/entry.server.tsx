/**
 * React Router's default Node server entry, with one change: Suspense boundaries render inline
 * whatever their size. React otherwise moves a finished boundary of more than ~12.8 KB of HTML
 * to the end of the document and swaps it in with a script: the guest forms (rendered in a
 * boundary so they can hydrate later, see app/components/forms/form-island.tsx) would then
 * appear a frame late, and not at all without JavaScript. And a second: every inline script
 * (React Router's hand-over, its streamed data, React's own) carries this request's
 * Content-Security-Policy nonce (server/middleware/security-headers.ts). And a third: a public
 * page is rendered whole, then prepared for its first paint before it leaves: its critical CSS
 * inlined (server/critical-css.ts), so it paints without waiting for the stylesheet, and its
 * module script and whole stylesheet held until that paint (server/deferred-loading.ts).
 */
import { PassThrough } from "node:stream";

import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { createReadableStreamFromReadable } from "@react-router/node";
import { ServerRouter } from "react-router";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { cspNonceContext, firstPaintContext, pageErrorLogContext } from "./context.ts";

export const streamTimeout = 5_000;

/** A failure of a loader, an action or the render, to the server's log (see pageErrorLogContext). */
function logPageError(error: unknown, context: unknown) {
  const log =
    context && typeof (context as RouterContextProvider).get === "function"
      ? (context as RouterContextProvider).get(pageErrorLogContext)
      : null;
  if (log) log(error);
  else console.error(error);
}

/** Instead of React Router's default, which prints the whole error (a query's values too). */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // A client that went away is not a failure.
  if (request.signal.aborted) return;
  logPageError(error, context);
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, {
      status: responseStatusCode,
      headers: responseHeaders,
    });
  }

  // ServerRouter hands the nonce to <Scripts>, <ScrollRestoration>, <Links> and its streamed
  // data; React puts it on the scripts it writes itself.
  const nonce = loadContext.get(cspNonceContext) ?? undefined;
  const prepareFirstPaint = loadContext.get(firstPaintContext);

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");

    // Ensure requests from bots and SPA Mode renders wait for all content to load before responding
    // https://react.dev/reference/react-dom/server/renderToPipeableStream#waiting-for-all-content-to-load-for-crawlers-and-static-generation
    // So do public pages: their critical CSS is taken from the whole document.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode || prepareFirstPaint
        ? "onAllReady"
        : "onShellReady";

    // Abort the rendering stream after the `streamTimeout` so it has time to
    // flush down the rejected boundaries
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              // Clear the timeout to prevent retaining the closure and memory leak
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html");

          pipe(body);

          if (prepareFirstPaint) {
            resolve(
              wholeDocument(body).then(
                async (html) =>
                  new Response(await prepareFirstPaint(html), {
                    headers: responseHeaders,
                    status: responseStatusCode,
                  }),
              ),
            );
            return;
          }

          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Log streaming rendering errors from inside the shell.  Don't log
          // errors encountered during initial shell rendering since they'll
          // reject and get logged in handleDocumentRequest.
          if (shellRendered) logPageError(error, loadContext);
        },
      },
    );
  });
}

/** The rendered document as text, once React has written all of it. */
async function wholeDocument(body: PassThrough): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString("utf8");
}
