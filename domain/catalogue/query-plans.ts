/** One node of PostgreSQL's `EXPLAIN (FORMAT JSON)` output, with the fields read here. */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
  [field: string]: unknown;
}

/**
 * The catalogue tables no catalogue page may read from end to end; `calendar_entries` is read
 * by the date filter, one probe of its (property_id, nights) index per candidate estate.
 */
export const CATALOGUE_TABLES = [
  "properties",
  "property_translations",
  "property_search",
  "calendar_entries",
] as const;

/**
 * Every sequential scan (parallel or not) of one of `relations` in a plan, subplans included:
 * on a large catalogue each is a read of the whole table, so a page that needs one does not
 * scale. The plan is the root node, or EXPLAIN's output (`[{ Plan }]`). In an analysed plan,
 * nodes that never ran (`Actual Loops` 0: the branch a one-time filter turned off) are skipped:
 * the check is about what a page does, not about a plan it did not use.
 */
export function sequentialScans(
  plan: PlanNode | { Plan: PlanNode }[],
  relations: readonly string[] = CATALOGUE_TABLES,
): PlanNode[] {
  const roots = Array.isArray(plan) ? plan.map((entry) => entry.Plan) : [plan];
  const found: PlanNode[] = [];
  const visit = (node: PlanNode) => {
    if (node["Actual Loops"] === 0) return;
    if (
      (node["Node Type"] === "Seq Scan" || node["Node Type"] === "Parallel Seq Scan") &&
      relations.includes(node["Relation Name"] ?? "")
    )
      found.push(node);
    node.Plans?.forEach(visit);
  };
  roots.forEach(visit);
  return found;
}

const SCAN_NODES = new Set([
  "Seq Scan",
  "Parallel Seq Scan",
  "Index Scan",
  "Index Only Scan",
  "Bitmap Heap Scan",
]);

/**
 * The rows an analysed plan read from tables and indexes: what each scan returned plus what
 * its filter dropped, over all its loops. A page that scales reads about what it shows.
 */
export function rowsRead(plan: PlanNode | { Plan: PlanNode }[]): number {
  const roots = Array.isArray(plan) ? plan.map((entry) => entry.Plan) : [plan];
  let total = 0;
  const visit = (node: PlanNode) => {
    if (SCAN_NODES.has(node["Node Type"])) total += nodeRowsRead(node);
    node.Plans?.forEach(visit);
  };
  roots.forEach(visit);
  return Math.round(total);
}

/** What one scan node returned and filtered out, over its loops. */
function nodeRowsRead(node: PlanNode): number {
  const loops = Number(node["Actual Loops"] ?? 1);
  const rows = Number(node["Actual Rows"] ?? 0) + Number(node["Rows Removed by Filter"] ?? 0);
  return rows * loops;
}

/**
 * Scans in an analysed plan that read more than `fraction` of a catalogue table (`tableRows`:
 * rows per table): a sequential scan that did not stop early, or an index walk that filtered
 * its way through the table because the planner expected its matches sooner. Either is a page
 * that does not scale; a sequential scan that a LIMIT stopped after a few rows is not.
 */
export function fullTableReads(
  plan: PlanNode | { Plan: PlanNode }[],
  tableRows: Record<string, number>,
  fraction = 0.1,
): { node: PlanNode; rowsRead: number }[] {
  const roots = Array.isArray(plan) ? plan.map((entry) => entry.Plan) : [plan];
  const found: { node: PlanNode; rowsRead: number }[] = [];
  const visit = (node: PlanNode) => {
    const table = node["Relation Name"];
    if (
      table !== undefined &&
      tableRows[table] !== undefined &&
      SCAN_NODES.has(node["Node Type"])
    ) {
      const read = nodeRowsRead(node);
      if (read > fraction * tableRows[table]) found.push({ node, rowsRead: read });
    }
    node.Plans?.forEach(visit);
  };
  roots.forEach(visit);
  return found;
}
