# syntax=docker/dockerfile:1
# Switchboard API and worker. One image, two entry points:
#   api (default):  node dist/bundle/main.js
#   worker:         node --max-semi-space-size=64 dist/bundle/worker.js (a larger young
#                   generation: delivery allocates short-lived objects fast, docs/benchmarks.md)
# Without DATABASE_URL it runs on embedded defaults (PGlite in /app/.data), so a single container
# works: docker run -p 3000:3000 -v switchboard-data:/app/.data switchboard
# docker-compose.yml runs api + worker on PostgreSQL 15 and Redis 7.

# ---- build: all dependencies, compile TypeScript -------------------------------------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
# `npm install`, not `npm ci`: lockfiles made on this project's machines lack the optional
# binaries of other platforms, which `npm ci` rejects (docs: shared/research/stack.md).
COPY package.json package-lock.json .npmrc ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

# ---- runtime: production dependencies and the compiled output only -------------------------
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
# The offline speech engine (STT_PROVIDER / TTS_PROVIDER=offline, the default): eSpeak NG speaks,
# PocketSphinx listens; sox for converting recordings by hand.
RUN apt-get update -qq \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    pocketsphinx pocketsphinx-en-us libpocketsphinx3 espeak-ng sox \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist/bundle ./dist/bundle
# DATA_DIR defaults to ./.data: the embedded database, its generated secrets and uploads.
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 3000
# Ready means the database (and Redis, when configured) answer. The first embedded start runs
# initdb (several seconds), hence the start period.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/bundle/main.js"]
