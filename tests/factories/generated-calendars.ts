/**
 * Calendars for a generated catalogue (tests/factories/generated-catalogue.ts): confirmed stays
 * (each with its confirmed property booking) and blocks over two years, for the catalogue's
 * date search in the bench (1,000,000 estates) and the plan test. Made inside the database by
 * `INSERT … SELECT generate_series`, like the catalogue, and reproducible: every choice derives
 * from the estate's id and a slot number through `hashint8extended`.
 *
 * The two years are cut into slots of 14 nights. An estate is empty (60%), quiet (25%: a slot
 * is taken with a chance of one in four, about 12% of its nights) or busy (15%: 85% of slots,
 * 35-45% of its nights); a taken slot holds one claim of 2 to 12 nights starting somewhere in
 * it, so claims of one estate never overlap (the exclusion constraint holds). A quarter of the
 * claims are blocks (owner stays, maintenance, private events), the rest stays.
 */
import { sql } from "drizzle-orm";
import { type Database, withTransaction } from "#db/client.ts";
import { BLOCK_KINDS } from "#domain/calendar/calendar.schema.ts";

/** Nights per slot; a claim is at most SLOT_NIGHTS - 2 nights, so some slack is left. */
const SLOT_NIGHTS = 14;
const MAX_CLAIM_NIGHTS = 12;

export interface GenerateCalendarsOptions {
  /** The estates: ids from `firstId` to `firstId + count - 1` (they must exist). */
  firstId?: number;
  count: number;
  /** The first night of the two years ('YYYY-MM-DD'); the calendar covers `days` from it. */
  from: string;
  days?: number;
  /**
   * Drop the indexes and constraints of calendar_entries and guest_requests (keys, the
   * exclusion constraint, foreign keys either way) before the load, and build them again after
   * it (much faster for millions of claims). Their definitions are read from the database, so
   * what is rebuilt is what was migrated, and checked as it is added back.
   */
  rebuildIndexes?: boolean;
  /** `maintenance_work_mem` for the index builds. */
  maintenanceWorkMem?: string;
  /**
   * Statements that may run side by side (PostgreSQL with a pool; 1 on PGlite): the two loads,
   * then the index builds, which PostgreSQL runs on one core each (GiST and GIN).
   */
  concurrency?: number;
  onStep?: (step: string, ms: number) => void;
}

export interface GenerateCalendarsReport {
  claims: number;
  stays: number;
  blocks: number;
  /** Nights taken over nights offered, all estates. */
  occupancy: number;
  steps: { step: string; ms: number }[];
  totalMs: number;
}

/** A probability in [0, 1) drawn from `key` (an SQL bigint expression) and a seed. */
const chance = (key: string, seed: number) =>
  `((hashint8extended(${key}, ${seed}) & 2147483647)::float8 / 2147483648)`;

/** The tables the load goes around, and the constraint rebuilt after it. */
const LOADED_TABLES = ["calendar_entries", "guest_requests"];

/**
 * Runs statements at most `concurrency` at a time, each after `setting` in a transaction of its
 * own, or alone without one (VACUUM refuses a transaction).
 */
async function runSideBySide(
  db: Database,
  statements: string[],
  concurrency: number,
  setting?: string,
): Promise<void> {
  const queue = [...statements];
  await Promise.all(
    Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const statement = next;
        if (!setting) await db.execute(sql.raw(statement));
        else
          await withTransaction(db, async (tx) => {
            await tx.execute(sql.raw(setting));
            await tx.execute(sql.raw(statement));
          });
      }
    }),
  );
}

/**
 * Fills the calendars of estates `firstId..firstId + count - 1` (no claims on them yet), then
 * analyses the tables. Returns what it made and how long each step took.
 */
export async function generateCalendars(
  db: Database,
  options: GenerateCalendarsOptions,
): Promise<GenerateCalendarsReport> {
  const firstId = options.firstId ?? 1;
  const lastId = firstId + options.count - 1;
  const slots = Math.floor((options.days ?? 730) / SLOT_NIGHTS);
  const steps: { step: string; ms: number }[] = [];
  const started = performance.now();
  const run = (statement: string) => db.execute(sql.raw(statement));
  const rows = async <T>(statement: string) =>
    ((await run(statement)) as unknown as { rows: T[] }).rows;
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const at = performance.now();
    const result = await work();
    const ms = Math.round(performance.now() - at);
    steps.push({ step: name, ms });
    options.onStep?.(name, ms);
    return result;
  };

  await run(`drop table if exists calendar_gen_claim`);
  // One row per taken slot: the estate, its slot, where the claim starts and how long it is.
  const estateClass = chance("e.id::bigint", 31);
  const slotKey = `(e.id::bigint * 1024 + s.slot)`;
  await step("draw claims", () =>
    run(`
      create unlogged table calendar_gen_claim as
      select id as property_id, slot, start, start + nights as stop,
        case when ${chance("(id::bigint * 1024 + slot)", 35)} < 0.25 then 'block' else 'stay' end as source,
        (array[${BLOCK_KINDS.filter((kind) => kind !== "other")
          .map((kind) => `'${kind}'`)
          .join(",")}])[1 + floor(${chance("(id::bigint * 1024 + slot)", 36)} * 3)::int] as kind
      from (
        select e.id, s.slot, nights,
          '${options.from}'::date + s.slot * ${SLOT_NIGHTS}
            + floor(${chance(slotKey, 33)} * (${SLOT_NIGHTS} - nights + 1))::int as start
        from generate_series(${firstId}, ${lastId}) as e(id)
        cross join generate_series(0, ${slots - 1}) as s(slot)
        cross join lateral (
          select 2 + floor(${chance(slotKey, 34)} * ${MAX_CLAIM_NIGHTS - 1})::int as nights
        ) n
        where ${chance(slotKey, 32)} < case
          when ${estateClass} < 0.60 then 0
          when ${estateClass} < 0.85 then 0.25
          else 0.85 end
      ) c`),
  );

  const concurrency = Math.max(1, options.concurrency ?? 1);
  let rebuilt: { indexes: string[]; foreignKeys: string[] } = { indexes: [], foreignKeys: [] };
  if (options.rebuildIndexes) {
    rebuilt = await step("drop indexes and constraints", async () => {
      const tables = LOADED_TABLES.map((table) => `'${table}'`).join(",");
      const found = await rows<{ name: string; definition: string }>(`
        select i.indexname as name, i.indexdef as definition
        from pg_indexes i
        where i.schemaname = current_schema() and i.tablename in (${tables})
          and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`);
      // Every constraint of the loaded tables, and the foreign keys that point at them. Keys
      // drawn at random (uuids, token hashes) cost a random insert into a large index per row;
      // built after the load, each index is one sort. A foreign key checked row by row costs a
      // probe per claim; added back, it is one join of the two tables.
      const constraints = await rows<{
        table: string;
        name: string;
        definition: string;
        kind: string;
      }>(`
        select t.relname as table, c.conname as name, pg_get_constraintdef(c.oid) as definition,
          c.contype as kind
        from pg_constraint c join pg_class t on t.oid = c.conrelid
        where t.relnamespace = current_schema()::regnamespace
          and ((c.contype in ('p', 'u', 'x', 'f') and t.relname in (${tables}))
            or (c.contype = 'f' and c.confrelid in (
              select oid from pg_class where relname in (${tables})
                and relnamespace = current_schema()::regnamespace)))`);
      for (const index of found) await run(`drop index "${index.name}"`);
      const byKind = (kinds: string) =>
        constraints.filter((constraint) => kinds.includes(constraint.kind));
      // Foreign keys first: a key cannot go while one points at it.
      for (const constraint of [...byKind("f"), ...byKind("pux")])
        await run(`alter table "${constraint.table}" drop constraint "${constraint.name}"`);
      const added = (kinds: string) =>
        byKind(kinds).map(
          (constraint) =>
            `alter table "${constraint.table}" add constraint "${constraint.name}" ${constraint.definition}`,
        );
      // The GiST builds are the longest: first, so the other connection takes the rest.
      const gist = (definition: string) => /using gist/i.test(definition);
      return {
        indexes: [
          ...added("x"),
          ...found.map((index) => index.definition).filter(gist),
          ...added("pu"),
          ...found.map((index) => index.definition).filter((definition) => !gist(definition)),
        ],
        // After the keys they point at.
        foreignKeys: added("f"),
      };
    });
  }

  // A stay is a confirmed property booking holding the nights, as confirming one makes it.
  // Without the foreign keys (dropped above) the two loads do not wait for each other.
  const loads = {
    "stays' requests": `
      insert into guest_requests (id, kind, reference, status, language, email, first_name,
        last_name, property_id, stay_start, stay_end, details, status_token_hash, created_at, updated_at)
      select md5('request-' || property_id || '-' || slot)::uuid, 'property_booking',
        'GEN-' || property_id || '-' || slot, 'Confirmed', 'en',
        'guest-' || property_id || '-' || slot || '@guests.example', 'Guest', 'No. ' || slot,
        property_id, start, stop,
        jsonb_build_object('startDate', start::text, 'endDate', stop::text, 'numberOfGuests', 2),
        md5('token-' || property_id || '-' || slot), start - 30, start - 30
      from calendar_gen_claim where source = 'stay'`,
    claims: `
      insert into calendar_entries (id, property_id, nights, source, kind, request_id, created_by)
      select md5('claim-' || property_id || '-' || slot)::uuid, property_id, daterange(start, stop),
        source, case when source = 'block' then kind end,
        case when source = 'stay' then md5('request-' || property_id || '-' || slot)::uuid end,
        case when source = 'block' then 'owner:estate-office-' || property_id || '@estates.example' end
      from calendar_gen_claim`,
  };
  const isBare = rebuilt.foreignKeys.length > 0;
  await step(`stays' requests and claims${isBare ? ", side by side" : ""}`, () =>
    runSideBySide(db, Object.values(loads), isBare ? concurrency : 1),
  );
  const [counts] = await rows<{ claims: number; stays: number; nights: number }>(`
    select count(*)::int as claims, count(*) filter (where source = 'stay')::int as stays,
      coalesce(sum(stop - start), 0)::float8 as nights
    from calendar_gen_claim`);
  await run(`drop table calendar_gen_claim`);

  if (rebuilt.indexes.length || rebuilt.foreignKeys.length) {
    const memory = options.maintenanceWorkMem
      ? `set local maintenance_work_mem = '${options.maintenanceWorkMem}'`
      : undefined;
    await step("build indexes and constraints", () =>
      runSideBySide(db, rebuilt.indexes, concurrency, memory),
    );
    await step("check foreign keys", () =>
      runSideBySide(db, rebuilt.foreignKeys, concurrency, memory),
    );
  }
  await step("vacuum analyze", () =>
    runSideBySide(
      db,
      LOADED_TABLES.map((table) => `vacuum analyze ${table}`),
      concurrency,
    ),
  );
  return {
    claims: counts?.claims ?? 0,
    stays: counts?.stays ?? 0,
    blocks: (counts?.claims ?? 0) - (counts?.stays ?? 0),
    occupancy: (counts?.nights ?? 0) / (options.count * slots * SLOT_NIGHTS),
    steps,
    totalMs: Math.round(performance.now() - started),
  };
}
