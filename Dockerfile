# syntax=docker/dockerfile:1
# Castellum's production image: build in one stage, run with production dependencies only, as
# a non-root user. See docs/deployment.md.

# ---- build: every dependency, then the React Router production build into build/ ----
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ---- production dependencies only (no Vite, no test tools) ----
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# ---- runtime ----
FROM node:24-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data \
    # sharp's freed memory goes back to the system instead of lingering in glibc arenas; a
    # fixed mmap threshold keeps libvips' large buffers mmapped, so RSS does not creep up
    # from one upload to the next (bench:owner)
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
# The sources the process and the CLIs run (Node 24 strips the types): server/index.ts loads
# build/server; `node db/migrate-cli.ts`, `node content/seed-cli.ts` and `node
# server/staff-cli.ts` run from source. .dockerignore keeps tests, benches and local data out.
COPY --chown=node:node . .
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# /healthz: the process answers. (Readiness, /readyz, is for the load balancer.)
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node itself is PID 1 (not npm), so SIGTERM reaches the server's drain (SHUTDOWN_GRACE_SECONDS).
STOPSIGNAL SIGTERM
CMD ["node", "server/index.ts"]
