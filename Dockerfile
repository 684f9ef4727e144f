# engine-console in a container: built once, run as a non-root user, listening on all interfaces (with a
# token: --no-auth is refused off loopback), checked by its own healthcheck subcommand.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    ENGINE_CONSOLE_LISTEN=0.0.0.0:8080 \
    ENGINE_HOME=/data \
    ENGINE_CONSOLE_INDEX_CACHE=/cache
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/console/dist ./console/dist
# The session index saved between runs lives in its own volume: the data directory holds only the engine's
# files and what the spec lists as the console's.
RUN mkdir -p /data /cache && chown node:node /data /cache && chmod 700 /cache \
 && ln -s /app/dist/bin/engine-console.js /usr/local/bin/engine-console && chmod +x /app/dist/bin/engine-console.js
USER node
VOLUME /data /cache
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=6s --start-period=5s --retries=3 CMD ["node", "/app/dist/bin/engine-console.js", "healthcheck"]
ENTRYPOINT ["node", "/app/dist/bin/engine-console.js"]
