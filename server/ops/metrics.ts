/**
 * Prometheus metrics in the text exposition format (version 0.0.4), written by hand: a
 * histogram of request latency and a counter of answers by route pattern and status class,
 * plus gauges read at scrape time (outbox, response cache, database pool).
 */
import type { NextFunction, Request, Response } from "express";

/** Seconds; from a cached page (~1 ms) to a slow export or upload. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Labels = Record<string, string>;

function labelText(labels: Labels): string {
  const parts = Object.entries(labels).map(
    ([name, value]) =>
      `${name}="${value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"')}"`,
  );
  return parts.length ? `{${parts.join(",")}}` : "";
}

function number(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

/** One gauge sample, read when scraped. */
export interface Sample {
  name: string;
  help: string;
  type: "gauge" | "counter";
  value: number;
  labels?: Labels;
}

/** The request metrics of one process. */
export class HttpMetrics {
  private readonly histograms = new Map<
    string,
    { labels: Labels; buckets: number[]; sum: number; count: number }
  >();
  private readonly counters = new Map<string, { labels: Labels; value: number }>();

  /** Records one answered request. */
  observe(method: string, route: string, status: number, seconds: number): void {
    const statusClass = `${Math.floor(status / 100)}xx`;
    const histogramLabels = { method, route };
    const histogramKey = `${method} ${route}`;
    let histogram = this.histograms.get(histogramKey);
    if (!histogram) {
      histogram = {
        labels: histogramLabels,
        buckets: LATENCY_BUCKETS.map(() => 0),
        sum: 0,
        count: 0,
      };
      this.histograms.set(histogramKey, histogram);
    }
    for (let i = 0; i < LATENCY_BUCKETS.length; i++)
      if (seconds <= (LATENCY_BUCKETS[i] as number)) histogram.buckets[i]! += 1;
    histogram.sum += seconds;
    histogram.count += 1;
    const counterKey = `${method} ${route} ${statusClass}`;
    const counter = this.counters.get(counterKey);
    if (counter) counter.value += 1;
    else
      this.counters.set(counterKey, {
        labels: { method, route, status_class: statusClass },
        value: 1,
      });
  }

  /** The exposition text: request metrics, then `samples` grouped by name. */
  render(samples: Sample[]): string {
    const lines: string[] = [];
    lines.push(
      "# HELP castellum_http_request_duration_seconds Time to answer a request, by route pattern.",
      "# TYPE castellum_http_request_duration_seconds histogram",
    );
    for (const { labels, buckets, sum, count } of this.histograms.values()) {
      LATENCY_BUCKETS.forEach((bound, i) =>
        lines.push(
          `castellum_http_request_duration_seconds_bucket${labelText({ ...labels, le: number(bound) })} ${buckets[i]}`,
        ),
      );
      lines.push(
        `castellum_http_request_duration_seconds_bucket${labelText({ ...labels, le: "+Inf" })} ${count}`,
        `castellum_http_request_duration_seconds_sum${labelText(labels)} ${number(sum)}`,
        `castellum_http_request_duration_seconds_count${labelText(labels)} ${count}`,
      );
    }
    lines.push(
      "# HELP castellum_http_requests_total Answered requests, by route pattern and status class.",
      "# TYPE castellum_http_requests_total counter",
    );
    for (const { labels, value } of this.counters.values())
      lines.push(`castellum_http_requests_total${labelText(labels)} ${value}`);
    const byName = new Map<string, Sample[]>();
    for (const sample of samples)
      byName.set(sample.name, [...(byName.get(sample.name) ?? []), sample]);
    for (const [name, group] of byName) {
      const first = group[0] as Sample;
      lines.push(`# HELP ${name} ${first.help}`, `# TYPE ${name} ${first.type}`);
      for (const sample of group)
        lines.push(`${name}${labelText(sample.labels ?? {})} ${number(sample.value)}`);
    }
    return `${lines.join("\n")}\n`;
  }
}

/**
 * The pages' URL patterns (app/routes.ts), so a page is counted under its pattern and not its
 * raw path: `/property/gordon-castle` and `/property/12` are both `/property/:idOrSlug`.
 */
const PAGE_PATTERNS: [RegExp, string][] = [
  [/^\/$/, "/"],
  // Public reads the response cache answers before any Express route runs.
  [/^\/api\/castles\/[^/]+$/, "/api/castles/:idOrSlug"],
  [
    /^\/(api\/castles|api\/openapi\.json|sitemap\.xml|robots\.txt|manifest\.webmanifest|whitepaper\.pdf)$/,
    "",
  ],
  [/^\/sitemap-\d+\.xml$/, "/sitemap-:n.xml"],
  [/^\/property\/[^/]+$/, "/property/:idOrSlug"],
  [/^\/booking\/[^/]+$/, "/booking/:idOrSlug"],
  [/^\/requests\/[^/]+$/, "/requests/:token"],
  [/^\/admin\/estates\/[^/]+$/, "/admin/estates/:id"],
  [
    /^\/(castles|team|contact|faqs|roadmap|tokenomics|tokensale|whitepaper|privacy|booking-request|membership|onboard\/verify|admin|admin\/dashboard|admin\/login|admin\/setup|admin\/booking-requests|admin\/mail|admin\/estates)$/,
    "",
  ],
];

/**
 * A bounded label for any path that no Express route matched (pages, answers from the
 * response cache): static assets as one, each page
 * as its React Router pattern (client data requests, `*.data`, with a `.data` suffix), anything
 * else (not-found pages, probes for random paths) as `unmatched`.
 */
export function normaliseRoute(path: string): string {
  if (path.startsWith("/assets/")) return "/assets/*";
  if (path === "/_root.data") return "/_root.data";
  const isData = path.endsWith(".data");
  const pagePath = isData ? path.slice(0, -".data".length) || "/" : path.replace(/(.)\/$/, "$1");
  for (const [pattern, name] of PAGE_PATTERNS)
    if (pattern.test(pagePath)) return `${name || pagePath}${isData ? ".data" : ""}`;
  return "unmatched";
}

/**
 * Times every request and records it on finish under its route pattern: the Express route
 * that answered (`req.baseUrl` + `req.route.path`, a pattern such as `/api/castles/:idOrSlug`),
 * else the page pattern from `normaliseRoute`.
 */
export function metricsMiddleware(metrics: HttpMetrics) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.once("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const routePath = (req.route as { path?: unknown } | undefined)?.path;
      const route =
        typeof routePath === "string"
          ? `${req.baseUrl}${routePath}`
          : normaliseRoute(req.originalUrl.split("?")[0] ?? "/");
      metrics.observe(req.method, route, res.statusCode, seconds);
    });
    next();
  };
}
