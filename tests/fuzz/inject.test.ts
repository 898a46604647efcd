import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import express from "express";
import { expect, it } from "vitest";
import { inject } from "./inject.ts";

it("returns a streamed answer far larger than a socket's buffer, whole", async () => {
  // A CSV export of thousands of rows, written through pipeline as the export routes do. With
  // a socket that pushes back, the answer waited for a 'drain' that never came (CI timed out).
  const rows = Array.from({ length: 20_000 }, (_, i) => `row ${i},${"x".repeat(40)}\n`);
  const app = express();
  app.get("/export.csv", async (_req, res) => {
    res.status(200).set("Content-Type", "text/csv");
    await pipeline(Readable.from(rows), res);
  });
  const answer = await inject(app, { method: "GET", url: "/export.csv" });
  expect(answer.status).toBe(200);
  expect(answer.text).toBe(rows.join(""));
}, 10_000);
