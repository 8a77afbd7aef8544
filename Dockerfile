# Lucie's image: build everything in a full Node image, then run the compiled server (plain
# JavaScript from scripts/build.mjs, no TypeScript loader) in a slim one as a non-root user.
# CI runs the same build script and smoke-runs its output (.ci/run), since no image is built there.

FROM node:20-bookworm AS build
WORKDIR /src
# Dependencies first: this layer is reused until the lockfile changes. better-sqlite3 compiles
# here, with the build tools of the full image.
COPY package.json package-lock.json ./
COPY scripts/build.mjs scripts/
COPY cli cli
COPY shared shared
# The CLI's solve and stats commands bundle the solver too.
COPY solver solver
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build /src/dist/app ./
COPY --from=build /src/node_modules ./node_modules
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/api/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Run with an init (compose `init: true`, `docker run --init`): SIGTERM reaches node, which
# closes its sockets and the database before exiting.
CMD ["node", "server/main.js"]
