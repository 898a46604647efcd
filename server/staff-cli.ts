/**
 * `npm run staff -- <command>`: staff accounts from the command line.
 *
 *   create <email> [--admin] [--name "Full Name"] [--language en|fr|it|zh]
 *   list | disable <email> | enable <email> | reset-password <email>
 *   sessions <email> | revoke <email> | reset-mfa <email>
 *
 * Passwords are read from a hidden prompt, or from the first line of stdin when it is not a
 * terminal (`printf '%s\n' "$PASSWORD" | npm run staff -- create ...`); never from argv, which
 * other users of the machine can see. Exits 0 on success, 1 on a refused command, 2 on usage.
 */
import { parseArgs } from "node:util";
import pino from "pino";
import { DatabaseBusyError } from "../db/client.ts";
import { loadDotEnv, openDatabaseFromEnv } from "../db/open-from-env.ts";
import { listStaffSessions, revokeStaffSessions } from "../domain/auth/sessions.ts";
import {
  createStaffAccount,
  findStaffByEmail,
  listStaffAccounts,
  resetStaffPassword,
  setStaffDisabled,
} from "../domain/staff/accounts.ts";
import { resetStaffMfa } from "../domain/staff/mfa/second-factor.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../domain/staff/passwords.ts";
import { isLastAdminRefusal } from "../domain/staff/manage-accounts.ts";
import { isCompanyEmail } from "../domain/staff/staff-user.ts";
import { isLanguage } from "../i18n/config.ts";
import { parseEnv } from "./env.ts";

const USAGE = `Usage: npm run staff -- <command>
  create <email> [--admin] [--name "Full Name"] [--language en|fr|it|zh]
  list
  disable <email>
  enable <email>
  reset-password <email>
  sessions <email>
  revoke <email>
  reset-mfa <email>   (removes the authenticator app and recovery codes; ends the sessions)
The password is asked for at a hidden prompt, or read from the first line of stdin.`;

const PASSWORD_PROBLEMS = {
  tooShort: `the password is too short (at least ${PASSWORD_MIN_LENGTH} characters)`,
  tooLong: `the password is too long (at most ${PASSWORD_MAX_LENGTH} characters)`,
  common: "the password is one of the 10,000 most common passwords; choose another",
  containsEmail: "the password must not be the email address or its name part",
} as const;

class UsageError extends Error {}
class RefusedError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      admin: { type: "boolean", default: false },
      name: { type: "string" },
      language: { type: "string", default: "en" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  const [command, email] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    if (!command && !values.help) throw new UsageError("no command given");
    return;
  }
  const needsEmail = command !== "list";
  if (needsEmail && !email) throw new UsageError(`${command} needs an email`);
  if (!isLanguage(values.language)) throw new UsageError("--language must be en, fr, it or zh");

  loadDotEnv();
  const env = parseEnv();
  const database = await openDatabaseFromEnv(env);
  const deps = { db: database.db, log: pino({ level: "silent" }) };
  try {
    await database.migrate();
    switch (command) {
      case "create": {
        const password = await readPassword("Password for the new account: ");
        const result = await createStaffAccount(deps, {
          email: email!,
          password,
          displayName: values.name,
          isAdmin: values.admin,
          language: values.language,
        });
        if (result.outcome === "invalid_email")
          throw new RefusedError(`not a valid email address: ${email}`);
        if (result.outcome === "duplicate")
          throw new RefusedError(`an account with ${email} already exists`);
        if (result.outcome === "weak_password")
          throw new RefusedError(PASSWORD_PROBLEMS[result.problem]);
        console.log(
          `Created ${result.user.isAdmin ? "admin" : "staff"} account ${result.user.email}.`,
        );
        if (result.user.isAdmin && !isCompanyEmail(result.user.email, env.ADMIN_EMAIL_DOMAIN))
          console.warn(
            `Note: ${result.user.email} is not at @${env.ADMIN_EMAIL_DOMAIN} (ADMIN_EMAIL_DOMAIN); this admin will see 'Access Denied'.`,
          );
        return;
      }
      case "list": {
        const accounts = await listStaffAccounts(deps);
        if (accounts.length === 0) console.log("No staff accounts.");
        for (const a of accounts)
          console.log(
            [
              a.email,
              a.isAdmin ? "admin" : "staff",
              a.disabled ? "disabled" : "active",
              a.language,
              a.displayName,
              `last login: ${a.lastLoginAt ?? "never"}`,
            ].join("\t"),
          );
        return;
      }
      case "disable":
      case "enable": {
        const result = await setStaffDisabled(deps, email!, command === "disable").catch(
          (error: unknown) => {
            // The database keeps one enabled admin (trigger staff_users_keep_an_admin).
            if (isLastAdminRefusal(error))
              throw new RefusedError(
                `${email} is the last enabled admin: enable or create another admin first`,
              );
            throw error;
          },
        );
        if (result.outcome === "not_found") throw new RefusedError(`no account with ${email}`);
        console.log(
          `${result.user.email} is ${command === "disable" ? "disabled; its sessions have ended" : "enabled"}.`,
        );
        return;
      }
      case "reset-password": {
        if (!(await findStaffByEmail(deps, email!)))
          throw new RefusedError(`no account with ${email}`);
        const password = await readPassword(`New password for ${email}: `);
        const result = await resetStaffPassword(deps, email!, password);
        if (result.outcome === "not_found") throw new RefusedError(`no account with ${email}`);
        if (result.outcome === "weak_password")
          throw new RefusedError(PASSWORD_PROBLEMS[result.problem]);
        console.log(`Password of ${result.user.email} changed; its sessions have ended.`);
        return;
      }
      case "sessions":
      case "revoke": {
        const account = await findStaffByEmail(deps, email!);
        if (!account) throw new RefusedError(`no account with ${email}`);
        if (command === "revoke") {
          const n = await revokeStaffSessions(deps, account.id);
          console.log(`Ended ${n} session${n === 1 ? "" : "s"} of ${account.email}.`);
          return;
        }
        const sessions = await listStaffSessions(deps, account.id);
        if (sessions.length === 0) console.log(`${account.email} has no open session.`);
        for (const s of sessions)
          console.log(
            [
              `since ${s.createdAt.toISOString()}`,
              `last seen ${s.lastSeenAt.toISOString()}`,
              `ends ${s.expiresAt.toISOString()}`,
              s.ip ?? "-",
              s.userAgent ?? "-",
            ].join("\t"),
          );
        return;
      }
      case "reset-mfa": {
        const result = await resetStaffMfa(deps, email!);
        if (result.outcome === "not_found") throw new RefusedError(`no account with ${email}`);
        const n = result.sessionsEnded;
        console.log(
          `Second factor of ${email!.trim().toLowerCase()} removed; ended ${n} session${n === 1 ? "" : "s"}. ` +
            "The next sign-in enrols a new one.",
        );
        return;
      }
      default:
        throw new UsageError(`unknown command: ${command}`);
    }
  } finally {
    await database.close();
  }
}

/** A hidden prompt on a terminal; otherwise the first line of stdin. */
async function readPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) {
    let input = "";
    for await (const chunk of process.stdin) input += String(chunk);
    const line = input.split(/\r?\n/)[0] ?? "";
    if (!line) throw new RefusedError("no password on stdin");
    return line;
  }
  const first = await hiddenPrompt(prompt);
  const second = await hiddenPrompt("Repeat it: ");
  if (first !== second) throw new RefusedError("the two passwords differ");
  return first;
}

function hiddenPrompt(prompt: string): Promise<string> {
  return new Promise((resolvePrompt, reject) => {
    const stdin = process.stdin;
    process.stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding("utf8");
    let value = "";
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n") {
          stdin.setRawMode(false);
          stdin.pause();
          stdin.off("data", onData);
          process.stderr.write("\n");
          return resolvePrompt(value);
        }
        if (char === "\u0003") {
          stdin.setRawMode(false);
          process.stderr.write("\n");
          return reject(new RefusedError("cancelled"));
        }
        if (char === "\u007f") value = value.slice(0, -1);
        else value += char;
      }
    };
    stdin.on("data", onData);
  });
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`Error: ${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else if (error instanceof RefusedError || error instanceof DatabaseBusyError) {
    console.error(`Error: ${error.message}`);
    process.exitCode = 1;
  } else {
    console.error(error);
    process.exitCode = 1;
  }
}
