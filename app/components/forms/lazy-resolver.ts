import type { FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";

/**
 * A react-hook-form resolver for a shared zod schema that is loaded on first use, so the form
 * pages' first load carries neither zod nor the schema (about 25 KB gzipped). The server
 * validates with the very same schema module.
 */
export function lazyZodResolver<Input extends FieldValues, Output>(
  load: () => Promise<z.ZodType>,
): { resolver: Resolver<Input, unknown, Output>; preload(): void } {
  let ready: Promise<Resolver<Input, unknown, Output>> | null = null;
  const get = () =>
    (ready ??= Promise.all([load(), import("@hookform/resolvers/zod")]).then(
      ([schema, { zodResolver }]) =>
        zodResolver(schema as never) as unknown as Resolver<Input, unknown, Output>,
    ));
  return {
    resolver: async (values, context, options) => (await get())(values, context, options),
    preload: () => void get().catch(() => (ready = null)),
  };
}
