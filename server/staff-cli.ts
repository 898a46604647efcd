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
import type { ReadStream } from "node:tty";
import { inspect, parseArgs } from "node:util";
import pino from "pino";
import { DatabaseBusyError, type DatabaseHandle } from "#db/client.ts";
import { type DatabaseEnv, loadDotEnv, openDatabaseFromEnv } from "#db/open-from-env.ts";
import { listStaffSessions, revokeStaffSessions } from "#domain/auth/sessions.ts";
import {
  createStaffAccount,
  findStaffByEmail,
  listStaffAccounts,
  resetStaffPassword,
  setStaffDisabled,
} from "#domain/staff/accounts.ts";
import { resetStaffMfa } from "#domain/staff/mfa/second-factor.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "#domain/staff/passwords.ts";
import { isLastAdminRefusal } from "#domain/staff/manage-accounts.ts";
import { isCompanyEmail } from "#domain/staff/staff-user.ts";
import { isLanguage } from "#i18n/config.ts";
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

/** What a run of the command reads and writes: the process's own, or a test's. */
export interface StaffCliIo {
  env: Record<string, string | undefined>;
  /** Where a password is read from: a hidden prompt when it is a terminal, else its first line. */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Opens the database `env` names (the default); a test hands in one it already holds. */
  openDatabase?: (env: DatabaseEnv) => Promise<DatabaseHandle>;
}

/**
 * Runs one command, as `npm run staff -- <argv>` does, and answers its exit code: 0 done,
 * 1 refused (a message on stderr), 2 a usage mistake.
 */
export async function runStaffCli(argv: string[], io: StaffCliIo): Promise<number> {
  try {
    await main(argv, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`Error: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof RefusedError || error instanceof DatabaseBusyError)
      io.stderr.write(`Error: ${error.message}\n`);
    else io.stderr.write(`${inspect(error)}\n`);
    return 1;
  }
}

async function main(argv: string[], io: StaffCliIo): Promise<void> {
  const print = (line: string) => void io.stdout.write(`${line}\n`);
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
    print(USAGE);
    if (!command && !values.help) throw new UsageError("no command given");
    return;
  }
  const needsEmail = command !== "list";
  if (needsEmail && !email) throw new UsageError(`${command} needs an email`);
  if (!isLanguage(values.language)) throw new UsageError("--language must be en, fr, it or zh");

  const env = parseEnv(io.env);
  const database = await (io.openDatabase ?? openDatabaseFromEnv)(env);
  const deps = { db: database.db, log: pino({ level: "silent" }) };
  try {
    await database.migrate();
    switch (command) {
      case "create": {
        const password = await readPassword(io, "Password for the new account: ");
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
        print(`Created ${result.user.isAdmin ? "admin" : "staff"} account ${result.user.email}.`);
        if (result.user.isAdmin && !isCompanyEmail(result.user.email, env.ADMIN_EMAIL_DOMAIN))
          io.stderr.write(
            `Note: ${result.user.email} is not at @${env.ADMIN_EMAIL_DOMAIN} (ADMIN_EMAIL_DOMAIN); this admin will see 'Access Denied'.\n`,
          );
        return;
      }
      case "list": {
        const accounts = await listStaffAccounts(deps);
        if (accounts.length === 0) print("No staff accounts.");
        for (const a of accounts)
          print(
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
        print(
          `${result.user.email} is ${command === "disable" ? "disabled; its sessions have ended" : "enabled"}.`,
        );
        return;
      }
      case "reset-password": {
        if (!(await findStaffByEmail(deps, email!)))
          throw new RefusedError(`no account with ${email}`);
        const password = await readPassword(io, `New password for ${email}: `);
        const result = await resetStaffPassword(deps, email!, password);
        if (result.outcome === "not_found") throw new RefusedError(`no account with ${email}`);
        if (result.outcome === "weak_password")
          throw new RefusedError(PASSWORD_PROBLEMS[result.problem]);
        print(`Password of ${result.user.email} changed; its sessions have ended.`);
        return;
      }
      case "sessions":
      case "revoke": {
        const account = await findStaffByEmail(deps, email!);
        if (!account) throw new RefusedError(`no account with ${email}`);
        if (command === "revoke") {
          const n = await revokeStaffSessions(deps, account.id);
          print(`Ended ${n} session${n === 1 ? "" : "s"} of ${account.email}.`);
          return;
        }
        const sessions = await listStaffSessions(deps, account.id);
        if (sessions.length === 0) print(`${account.email} has no open session.`);
        for (const s of sessions)
          print(
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
        print(
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
async function readPassword(io: StaffCliIo, prompt: string): Promise<string> {
  if (!io.stdin.isTTY) {
    let input = "";
    for await (const chunk of io.stdin) input += String(chunk);
    const line = input.split(/\r?\n/)[0] ?? "";
    if (!line) throw new RefusedError("no password on stdin");
    return line;
  }
  const terminal = { stdin: io.stdin as ReadStream, stderr: io.stderr };
  const first = await hiddenPrompt(terminal, prompt);
  const second = await hiddenPrompt(terminal, "Repeat it: ");
  if (first !== second) throw new RefusedError("the two passwords differ");
  return first;
}

function hiddenPrompt(
  { stdin, stderr }: { stdin: ReadStream; stderr: StaffCliIo["stderr"] },
  prompt: string,
): Promise<string> {
  return new Promise((resolvePrompt, reject) => {
    stderr.write(prompt);
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
          stderr.write("\n");
          return resolvePrompt(value);
        }
        if (char === "\u0003") {
          stdin.setRawMode(false);
          stderr.write("\n");
          return reject(new RefusedError("cancelled"));
        }
        if (char === "\u007f") value = value.slice(0, -1);
        else value += char;
      }
    };
    stdin.on("data", onData);
  });
}

if (import.meta.main) {
  loadDotEnv();
  process.exitCode = await runStaffCli(process.argv.slice(2), {
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  });
}
