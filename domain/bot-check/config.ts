/** How the server checks that a form was sent by a person (decisions.md, DESIGN.md). */
export interface AltchaConfig {
  /** PBKDF2 iterations per attempt; a guest's browser makes ~256 attempts on average. */
  cost: number;
  /** How long a challenge (and so a solved token) stays valid. */
  expiresInSeconds: number;
  /** Signs challenges; shared by every app instance (configuration or the database). */
  hmacSecret: string;
}

export interface TurnstileConfig {
  siteKey: string;
  secretKey: string;
  /** Cloudflare's siteverify endpoint; tests point it at a local HTTP server. */
  verifyUrl: string;
}

export type BotCheckConfig =
  | { provider: "altcha"; altcha: AltchaConfig }
  | { provider: "turnstile"; turnstile: TurnstileConfig };

/** What the browser needs to draw the widget; no secrets. */
export type BotCheckClientConfig =
  { provider: "altcha"; challengeUrl: string } | { provider: "turnstile"; siteKey: string };

export const ALTCHA_CHALLENGE_PATH = "/api/bot-check/challenge";

export function clientBotCheckConfig(config: BotCheckConfig): BotCheckClientConfig {
  return config.provider === "altcha"
    ? { provider: "altcha", challengeUrl: ALTCHA_CHALLENGE_PATH }
    : { provider: "turnstile", siteKey: config.turnstile.siteKey };
}

/** Turnstile tokens live 300 seconds (Cloudflare's documentation). */
export const TURNSTILE_TOKEN_SECONDS = 300;
