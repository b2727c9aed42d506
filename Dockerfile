# One image for the four services and the `ranking` CLI (NOT BUILT on the development and CI
# machines: no container engine there; test/deploy/deploy-artifacts.spec.ts checks this file's
# shape only). The command picks the role:
#   dist/apps/intake-service/src/main.js, dist/apps/rating-service/src/main.js,
#   dist/apps/maintenance-service/src/main.js, dist/apps/leaderboard-service/src/main.js,
#   or bin/ranking.js setup | simulate | ...
# Build from the repository root: docker build -t ranking .

# Build stage: every dependency, then tsc and tsc-alias into dist/.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
# No install scripts: the only ones are a file watcher's (dev) and a telemetry ping (swagger-ui-dist).
# Our own postinstall (patch-package: the kafkajs patch of ADR 37) is run by name instead.
RUN npm ci --ignore-scripts --no-audit --no-fund && npx --no-install patch-package --error-on-fail
COPY tsconfig.json tsconfig.build.json ./
COPY apps ./apps
COPY libs ./libs
RUN npm run build

# Run stage: production dependencies, the build output and the files it reads at run time.
FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0
WORKDIR /app
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && npx --no-install patch-package --error-on-fail && npm cache clean --force
# dist/ holds libs/contracts' events.schema.json too (tsc copies imported JSON).
COPY --from=build /app/dist ./dist
COPY bin ./bin
# The leaderboard page's files, read at start-up from apps/leaderboard-service/public/.
COPY apps/leaderboard-service/public ./apps/leaderboard-service/public
# The demo's tournaments (RANKING_TOURNAMENTS_FILE and `ranking simulate --tournaments`).
COPY deploy/demo-tournaments.json ./deploy/demo-tournaments.json
# Files stay root's and read-only to the process; the node user (uid 1000) runs it.
USER node
# leaderboard (HTTP_PORT), maintenance (MAINTENANCE_HTTP_PORT), rating (RATING_HTTP_PORT),
# intake (INTAKE_HTTP_PORT)
EXPOSE 3000 3001 3002 3003
ENTRYPOINT ["node"]
CMD ["bin/ranking.js", "--help"]
