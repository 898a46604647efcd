import { startTopology } from "./tests/topology/topology.ts";
const t = await startTopology({ instances: 2 });
try {
  const name = new URL(t.databaseUrl).pathname.slice(1);
  const load = setInterval(() => { void fetch(`${t.url}/castles?x=${Math.random()}`).catch(() => {}); void fetch(`${t.url}/api/castles/gordon-castle?z=${Math.random()}`).catch(() => {}); }, 30);
  for (let i = 0; i < 10; i++) {
    const sessions = await t.query<{ pid: number }>("select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [name]);
    await t.query("select pg_terminate_backend(pid) from unnest($1::int[]) as pid", [sessions.map((s) => s.pid)]);
    await new Promise((r) => setTimeout(r, 250));
  }
  await new Promise((r) => setTimeout(r, 3000));
  clearInterval(load);
  for (const i of t.instances) { console.log("=== instance", i.port, "running", i.running); console.log(i.log().split("\n").filter((l) => !l.includes('"level":30')).slice(-15).join("\n")); }
} finally { await t.stop(); }
