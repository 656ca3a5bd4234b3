# The console as a container image, for running several replicas behind a load balancer
# (compose.yaml, README "Running at scale"). One image serves both roles: the console
# (the default command) and the standalone mock upstream (`node dist/tools/mock-upstream.js`).
# The image holds the build only: the server, the mock and the operator tools are bundled by
# esbuild into dist/, so neither the sources (tests included) nor tsx are shipped.

# Node 24, the maintained LTS line (README "Supported Node versions").
FROM node:24-bookworm-slim AS build
WORKDIR /app
# No compiler: better-sqlite3 ships Node-API builds for linux-x64 and linux-arm64 in its package.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8787 \
    DATA_DIR=/data \
    STATIC_DIR=/app/dist/client
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8787
# Ready, not merely alive: the store answers, a token can be had, not shutting down.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8787)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM starts the graceful shutdown (at most 10 s); give it that long before SIGKILL.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "--max-old-space-size=384", "--max-semi-space-size=16", "dist/server/index.js"]
