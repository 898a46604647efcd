import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { pageErrorLogContext } from "./context.ts";
import { handleError } from "./entry.server.tsx";

describe("a page's server-side failure", () => {
  it("goes to the server's logger, not to standard error whole, and a client gone away is not one", () => {
    const logged: unknown[] = [];
    const context = new RouterContextProvider();
    context.set(pageErrorLogContext, (error) => logged.push(error));
    const failure = new Error("Failed query: select 1\nparams: guest@example.org");
    handleError(failure, {
      request: new Request("http://castellum.test/admin"),
      context,
      params: {},
    });
    expect(logged).toEqual([failure]);

    const gone = new AbortController();
    gone.abort();
    handleError(new Error("aborted"), {
      request: new Request("http://castellum.test/admin", { signal: gone.signal }),
      context,
      params: {},
    });
    expect(logged).toEqual([failure]);
  });
});
