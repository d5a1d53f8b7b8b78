# cloudbot as a container: compiled JavaScript on Node 20 slim, production dependencies only,
# as a non-root user. test/e2e/container-recipe.test.ts runs these same steps in a clean copy of
# the repository (no Docker engine needed) and starts the result. README › Run it in a container.

# ── build: dev dependencies, the TypeScript build, then only production dependencies kept ──
FROM node:20-slim AS build
WORKDIR /app
# better-sqlite3 is native: its prebuilt binary is fetched at install, and built from source
# with these when none fits the platform.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build
# Dev dependencies (typescript, vitest, …) go; the compiled better-sqlite3 stays as built.
RUN npm prune --omit=dev --no-audit --no-fund

# ── runtime ──
FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The image's own unprivileged user; the SQLite default (./data) is created by the bot, so the
# folder must be the user's. Replicas use PostgreSQL (compose.yaml).
RUN mkdir -p /app/data && chown node:node /app/data
USER node
ENV PORT=3000
# PORT: HTTP mode (Slack's requests, /healthz, /readyz, /metrics). METRICS_PORT's default:
# Socket Mode's own listener (/healthz, /readyz, /metrics), the only port it opens.
EXPOSE 3000 9464
# Ready only once Slack answered auth.test and the store answers, and no longer from the first
# moment of a stop. dist/healthcheck.js asks /readyz where this mode serves it (PORT or METRICS_PORT).
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "dist/healthcheck.js"]
# SIGTERM: readyz 503, new requests told "restarting", leases released, work in flight finished
# within SHUTDOWN_TIMEOUT_MS. Node is PID 1 here (no npm in between), so the signal reaches it.
STOPSIGNAL SIGTERM
# The heap limit `npm start` uses (package.json), on the compiled bot directly.
CMD ["node", "--max-old-space-size=256", "--max-semi-space-size=8", "dist/main.js"]
