import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { startServer, ROOT } from "./tests/e2e/server.ts";
import { solveBotCheck, validPropertyBooking, isoDate } from "./tests/setup/intake.ts";

const dir = mkdtempSync(join(tmpdir(), "shot-"));
const server = await startServer({ DATA_DIR: dir, ADMIN_EMAIL_DOMAIN: "castellum.example" });
const url = server.baseURL;
// admin
const admin = { email: "shots@castellum.example", password: "battlement-river-dawn-58" };
await server.stop();
execFileSync(process.execPath, ["server/staff-cli.ts", "create", admin.email, "--admin", "--name", "Shots"], { cwd: ROOT, input: `${admin.password}\n`, env: { ...process.env, DATA_DIR: dir, NODE_ENV: "production", DATABASE_URL: "" }, stdio: ["pipe", "inherit", "inherit"] });
const s2 = await startServer({ DATA_DIR: dir, ADMIN_EMAIL_DOMAIN: "castellum.example" });
const base = s2.baseURL;
const post = async (path: string, body: unknown, cookie = "") => {
  const r = await fetch(`${base}${path}`, { method: path.includes("/stay") ? "PUT" : path.match(/bookings\/[0-9a-f-]{36}$/) ? "PATCH" : "POST", headers: { "Content-Type": "application/json", Origin: base, ...(cookie ? { Cookie: cookie } : {}) }, body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as any, headers: r.headers };
};
const mk = async (start: string, end: string) => (await post("/api/bookings", { ...validPropertyBooking({ propertyId: 1, dateMode: "exact", startDate: start, endDate: end }), turnstileToken: await solveBotCheck(base) })).body;
const a = await mk(isoDate(30), isoDate(34));
const b = await mk(isoDate(32), isoDate(36));
const login = await post("/api/admin/login", admin);
const cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;
console.log((await post(`/api/bookings/${a.id}`, { status: "Confirmed" }, cookie)).status);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
for (const [lang, width] of [["en", 1280], ["zh", 390]] as const) {
  const ctx = await browser.newContext({ viewport: { width, height: 1400 }, locale: lang });
  const [name, value] = cookie.split("=");
  await ctx.addCookies([{ name: name!, value: value!, url: base }]);
  const page = await ctx.newPage();
  await page.goto(`${base}/admin/booking-requests/bookings/${b.id}?lang=${lang}`);
  await page.getByRole("dialog").waitFor();
  await page.screenshot({ path: `/tmp/shots-me/details-${lang}-${width}.png`, fullPage: true });
  await page.getByTestId("status-select").first().selectOption("Confirmed").catch(() => {});
  await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/shots-me/confirm-${lang}-${width}.png`, fullPage: false });
  await ctx.close();
}
await browser.close();
await s2.stop();
