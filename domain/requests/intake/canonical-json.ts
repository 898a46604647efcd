/**
 * JSON text of `value` with every object's keys sorted, so two bodies that differ only in key
 * order read the same. Matches JSON.stringify for what JSON.parse gives (and writes `null` for
 * what JSON cannot hold). Works with its own stack: no nesting, however deep, overflows the
 * call stack.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // Text to write as is, or a value still to be written; popped from the end.
  const pending: ({ text: string } | { value: unknown })[] = [{ value }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if ("text" in next) {
      out.push(next.text);
      continue;
    }
    const item = next.value;
    if (Array.isArray(item)) {
      const parts: ({ text: string } | { value: unknown })[] = [{ text: "[" }];
      for (let i = 0; i < item.length; i++) {
        if (i > 0) parts.push({ text: "," });
        // A hole (never in parsed JSON) writes nothing, as Array#join does.
        if (i in item) parts.push({ value: item[i] });
      }
      parts.push({ text: "]" });
      for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]!);
    } else if (item && typeof item === "object") {
      const entries = Object.entries(item as Record<string, unknown>).sort(([a], [b]) =>
        a < b ? -1 : a > b ? 1 : 0,
      );
      const parts: ({ text: string } | { value: unknown })[] = [{ text: "{" }];
      entries.forEach(([key, entry], i) => {
        parts.push({ text: `${i > 0 ? "," : ""}${JSON.stringify(key)}:` }, { value: entry });
      });
      parts.push({ text: "}" });
      for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]!);
    } else {
      out.push(JSON.stringify(item) ?? "null");
    }
  }
  return out.join("");
}
