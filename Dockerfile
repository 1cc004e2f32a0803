# Klebb in a container: `docker build -t klebb .` then
# `docker run -p 8080:8080 -v klebb-data:/data klebb`. The data (cards, database, keys) lives in
# the /data volume; the image holds only code. A compose example with nginx in front:
# deploy/docker/compose.yaml. See docs/DEPLOY.md.

# --- build: compile the server and the web app, then keep only production dependencies ---
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.json vitest.config.ts server.rolldown.config.ts ./
COPY src ./src
COPY web ./web
COPY scripts ./scripts
COPY bench ./bench
COPY templates ./templates
RUN npm ci --no-audit --no-fund
RUN npm prune --omit=dev --no-audit --no-fund

# --- runtime: Node, the compiled code, the documents the chat may read, and the report readers ---
FROM node:20-bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends poppler-utils tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu && rm -rf /var/lib/apt/lists/*
RUN groupadd --system klebb && useradd --system --gid klebb --home-dir /data --shell /usr/sbin/nologin klebb
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/templates ./templates
COPY README.md ./README.md
COPY docs ./docs
ENV NODE_ENV=production
# large buffers (request bodies) in their own mappings, returned to the system when freed (docs/DEPLOY.md)
ENV MALLOC_MMAP_THRESHOLD_=65536
# one V8 helper thread instead of four: fewer C-heap arenas kept resident (docs/DEPLOY.md)
ENV NODE_OPTIONS=--v8-pool-size=1
ENV HEALTH_HOME=/data
ENV HOST=0.0.0.0
ENV PORT=8080
RUN mkdir -p /data && chown klebb:klebb /data
VOLUME /data
USER klebb
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/main.js"]
