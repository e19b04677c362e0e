# syntax=docker/dockerfile:1
# Build stage: compile TypeScript with the dev toolchain.
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json tsconfig.app.json ./
COPY src ./src
# The fakes `autofix demo --app` runs against (fake GitHub, scripted model).
COPY fakes ./fakes
# The application only: benchmarks and tests are not part of the image.
RUN npx tsc -p tsconfig.app.json

# Runtime stage: production dependencies, git for workspaces, and the sandbox's tools: bubblewrap
# (≥ 0.8 for --disable-userns), prlimit and setpriv (util-linux), chown (coreutils; setpriv and
# chown are used only when the worker runs as root). The build fails here, not the worker at its
# first job, when one is missing. Running the sandbox needs the container settings of
# docker-compose.yml (README, "Sandbox in containers"); `worker` checks them at start.
FROM node:24-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends git bubblewrap util-linux coreutils ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && for tool in git bwrap prlimit setpriv chown; do \
      command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }; \
    done \
 && bwrap --help | grep -q -- --disable-userns
# AUTOFIX_ENV_FILE: where the setup page writes the App's credentials and where `serve` and
# `worker` read them at start. /app belongs to root and the container's own layer is lost with
# it: mount a volume at /var/lib/autofix-config (docker-compose.yml does).
ENV NODE_ENV=production \
    AUTOFIX_WORKDIR=/var/lib/autofix \
    AUTOFIX_ENV_FILE=/var/lib/autofix-config/.env \
    PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY agents ./agents
COPY app.yml ./
# A new named volume takes these folders' owner and mode, so the unprivileged user can write.
RUN groupadd --system autofix && useradd --system --gid autofix --create-home autofix \
 && mkdir -p /var/lib/autofix /var/lib/autofix-config \
 && chown autofix:autofix /var/lib/autofix /var/lib/autofix-config \
 && chmod 700 /var/lib/autofix-config
USER autofix
EXPOSE 3000
# Secrets come at run time, best as files (PRIVATE_KEY_PATH, *_FILE: docs/SECURITY.md); from the
# environment they are cleared from /proc at start. None is baked into the image.
# Liveness (/healthz): restarting does not fix a Redis outage; orchestrators that route traffic
# should probe /readyz for readiness (503 with the reason while Redis or the workers are down).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD curl -fsS "http://127.0.0.1:${PORT}/healthz" || exit 1
ENTRYPOINT ["node", "dist/src/bin/autofix.js"]
CMD ["serve", "--no-workers"]
