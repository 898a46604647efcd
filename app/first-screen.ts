/**
 * What a public page loads after its first screen has painted (decision 0039). The server sends
 * the page with React Router's module script inert, its module preloads listed on it, and the
 * whole stylesheet (its critical rules are inlined) `disabled`, so not fetched
 * (server/deferred-loading.ts). `START_AFTER_FIRST_SCREEN`, inline in the root's head, starts
 * both once the page has painted and the images it fetches first (`fetchpriority="high"`: the
 * home page's hero, an estate's first photograph) have loaded. On a slow line the HTML and those
 * images have the connection to themselves, and the rest follows at once.
 */

/** The type that keeps React Router's module script from running until it is started. */
export const DEFERRED_MODULE_TYPE = "text/x-deferred-module";

/** The attribute of the inert script that lists the modules to preload, space-separated. */
export const MODULE_PRELOAD_ATTRIBUTE = "data-modulepreload";

/**
 * Where the root's inline script keeps the last button pressed before the page hydrated, for
 * `takeEarlyPress` (app/hydration.ts).
 */
export const EARLY_PRESS_KEY = "__castellumEarlyPress";

/**
 * Where the root's inline script keeps a guest form's submit made before the form's code had
 * run (`{ form, submitter }`), for the form island to adopt (components/forms/form-island.tsx).
 */
export const EARLY_SUBMIT_KEY = "__castellumEarlySubmit";

/** Set by the form island's code once it holds early submits itself: the inline script stops. */
export const SUBMITS_HELD_KEY = "__castellumSubmitsHeld";

/**
 * The most the page waits for those images (ms after the document is parsed): a stalled image
 * must not leave it without its code.
 */
const IMAGE_WAIT_LIMIT_MS = 3000;

/**
 * Run as the head is parsed, from the root's inline script (nonce, or hash on a stored page).
 * A deferred stylesheet (`media="print" data-swap-media="all"`) applies to the screen once it
 * has loaded: set from here rather than an `onload` attribute, which the policy forbids. Once
 * the body is parsed, its first-fetched images have loaded and the next frame has painted,
 * `start` announces the modules together (no waterfall of imports), then, each in a task of its
 * own, puts a live module script with the inert one's text and nonce in place of the inert one
 * (a stored page's policy lists that text's hash: server/middleware/security-headers.ts counts
 * the type among the scripts that run) and enables that stylesheet. A hidden page paints
 * nothing (no animation frames): it starts at once.
 *
 * Until the page has hydrated, a press on a button outside a form (the phone's menu button, the
 * gallery's, the share buttons) does nothing: the script keeps the last such button, and it is
 * pressed again once its part of the page has hydrated (app/hydration.ts). A guest form's
 * submit before the form's code has run would be sent natively, a page load that drops what was
 * typed: the script stops it and keeps it until that code takes over (it is then made again
 * through the form, components/forms/form-island.tsx). Either starts the page's code at once:
 * the guest is not waiting for the first screen any more.
 */
export const START_AFTER_FIRST_SCREEN = `(function(){var d=document,started=0;
d.addEventListener('click',function(e){var t=e.target,b=t&&t.closest?t.closest('button'):null;if(b&&!b.closest('form')&&!d.documentElement.hasAttribute('data-hydrated')){window.${EARLY_PRESS_KEY}=b;start()}},true);
window.addEventListener('submit',function(e){var f=e.target;if(window.${SUBMITS_HELD_KEY}||!f||!f.closest||!f.closest('[data-form-island]'))return;e.preventDefault();e.stopPropagation();window.${EARLY_SUBMIT_KEY}={form:f,submitter:e.submitter||null};start()},true);
d.querySelectorAll('link[data-swap-media]').forEach(function(l){function on(){l.media=l.getAttribute('data-swap-media')}l.sheet?on():l.addEventListener('load',on)});
function start(){if(started)return;started=1;var s=d.querySelector('script[type="${DEFERRED_MODULE_TYPE}"]');
if(s){var f=d.createDocumentFragment();(s.getAttribute('${MODULE_PRELOAD_ATTRIBUTE}')||'').split(' ').forEach(function(h){if(!h)return;var l=d.createElement('link');l.rel='modulepreload';l.href=h;f.appendChild(l)});d.head.appendChild(f)}
setTimeout(function(){if(!s)return;var m=d.createElement('script');m.type='module';m.nonce=s.nonce;m.textContent=s.textContent;s.replaceWith(m)},0);
setTimeout(function(){d.querySelectorAll('link[data-swap-media][disabled]').forEach(function(l){l.removeAttribute('disabled')})},0)}
function afterPaint(){d.visibilityState==='hidden'?setTimeout(start,0):requestAnimationFrame(function(){setTimeout(start,0)})}
function whenFirstImagesLoaded(){var images=[].filter.call(d.images,function(i){return i.getAttribute('fetchpriority')==='high'&&!i.complete}),left=images.length;
if(!left)return afterPaint();
images.forEach(function(i){function done(){--left||afterPaint()}i.addEventListener('load',done,{once:true});i.addEventListener('error',done,{once:true})});
setTimeout(start,${IMAGE_WAIT_LIMIT_MS})}
d.readyState==='loading'?d.addEventListener('DOMContentLoaded',whenFirstImagesLoaded):whenFirstImagesLoaded()})();`.replace(
  /\n/g,
  "",
);
