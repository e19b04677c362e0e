# syntax=docker/dockerfile:1
# Build stage: compile TypeScript with the dev toolchain.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json tsconfig.app.json ./
COPY src ./src
# The application only: benchmarks and tests are not part of the image.
RUN npx tsc -p tsconfig.app.json

# Runtime stage: production dependencies, git for workspaces, bubblewrap for the sandbox.
FROM node:24-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends git bubblewrap ca-certificates curl \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    AUTOFIX_WORKDIR=/var/lib/autofix \
    PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY agents ./agents
COPY app.yml ./
RUN groupadd --system autofix && useradd --system --gid autofix --create-home autofix \
 && mkdir -p /var/lib/autofix && chown autofix:autofix /var/lib/autofix
USER autofix
EXPOSE 3000
# Secrets (APP_ID, PRIVATE_KEY, WEBHOOK_SECRET, OPENAI_API_KEY) come from the environment at run
# time; none is baked into the image.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD curl -fsS "http://127.0.0.1:${PORT}/healthz" || exit 1
ENTRYPOINT ["node", "dist/src/bin/autofix.js"]
CMD ["serve", "--no-workers"]
