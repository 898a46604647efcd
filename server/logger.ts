import pino, { type Logger } from "pino";
import type { Env } from "./env.ts";

export function createLogger(env: Pick<Env, "LOG_LEVEL">): Logger {
  return pino({ level: env.LOG_LEVEL, base: undefined });
}
