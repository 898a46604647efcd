/**
 * Cloudflare Turnstile, used instead of ALTCHA when its keys are configured: the script is
 * loaded once with explicit rendering, then one widget is rendered into the host.
 */
const SCRIPT_URL = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";

interface Turnstile {
  render(host: HTMLElement, options: Record<string, unknown>): string;
  reset(id: string): void;
  remove(id: string): void;
}

let loading: Promise<Turnstile> | null = null;

function loadTurnstile(): Promise<Turnstile> {
  const existing = (window as unknown as { turnstile?: Turnstile }).turnstile;
  if (existing) return Promise.resolve(existing);
  loading ??= new Promise<Turnstile>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = SCRIPT_URL;
    script.async = true;
    script.onload = () => {
      const turnstile = (window as unknown as { turnstile?: Turnstile }).turnstile;
      if (turnstile) resolve(turnstile);
      else reject(new Error("turnstile missing"));
    };
    script.onerror = () => {
      loading = null;
      reject(new Error("turnstile script failed to load"));
    };
    document.head.append(script);
  });
  return loading;
}

export async function mountTurnstile(
  host: HTMLElement,
  options: { siteKey: string; language: string; onToken(token: string | null): void },
) {
  const turnstile = await loadTurnstile();
  const id = turnstile.render(host, {
    sitekey: options.siteKey,
    language: options.language,
    callback: (token: string) => options.onToken(token),
    "expired-callback": () => {
      options.onToken(null);
      turnstile.reset(id);
    },
    "error-callback": () => options.onToken(null),
  });
  return { reset: () => turnstile.reset(id), remove: () => turnstile.remove(id) };
}
