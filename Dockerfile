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

# Worker with the toolchains of other languages (README "Worker images"): Python 3 (venv, pip),
# Go, a JDK, Maven and Gradle, for repositories whose `setup`/`validate` need them (the sandbox
# sees the worker's /usr, /opt and PATH). `docker build --target worker-full`, or
# AUTOFIX_WORKER_TARGET=worker-full for docker compose. Debian's packages where the release's own
# version serves (Python; the JDK of the release, 17 on bookworm, 21 on trixie, or
# --build-arg JDK_PACKAGE); the rest pinned, and checked against its published checksum before
# anything is unpacked. Maven is not Debian's 3.8: `validate` reads setup's downloads through
# Maven ≥ 3.9's read-only `maven.repo.local.tail` (src/exec/toolchains/java.ts).
FROM runtime AS worker-full
USER root
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
ARG JDK_PACKAGE=
ARG GO_VERSION=1.23.4
ARG GO_SHA256_AMD64=6924efde5de86fe277676e929dc9917d466efa02fb934197bc2eba35d5680971
ARG GO_SHA256_ARM64=16e5017863a7f6071363782b1b8042eb12c6ca4f4cd71528b2123f0a1275b13e
ARG MAVEN_VERSION=3.9.9
ARG MAVEN_SHA512=a555254d6b53d267965a3404ecb14e53c3827c09c3b94b5678835887ab404556bfaf78dcfe03ba76fa2508649dca8531c74bca4d5846513522404d48e8c4ac8b
ARG GRADLE_VERSION=8.12
ARG GRADLE_SHA256=7a00d51fb93147819aab76024feece20b6b84e420694101f276be952e08bef03
# The JDK's postinst links man pages into a folder the slim image does not have.
RUN . /etc/os-release \
 && case "${JDK_PACKAGE:-$VERSION_CODENAME}" in \
      bookworm) jdk=openjdk-17-jdk-headless ;; \
      trixie) jdk=openjdk-21-jdk-headless ;; \
      openjdk-*) jdk="$JDK_PACKAGE" ;; \
      *) echo "no JDK known for Debian $VERSION_CODENAME: pass --build-arg JDK_PACKAGE=openjdk-NN-jdk-headless" >&2; exit 1 ;; \
    esac \
 && mkdir -p /usr/share/man/man1 \
 && apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-venv python3-pip "$jdk" unzip \
 && rm -rf /var/lib/apt/lists/*
RUN arch="$(dpkg --print-architecture)" \
 && case "$arch" in \
      amd64) sum="$GO_SHA256_AMD64" ;; \
      arm64) sum="$GO_SHA256_ARM64" ;; \
      *) echo "no Go checksum for $arch" >&2; exit 1 ;; \
    esac \
 && curl -fsSLo /tmp/go.tar.gz "https://go.dev/dl/go${GO_VERSION}.linux-${arch}.tar.gz" \
 && echo "${sum}  /tmp/go.tar.gz" | sha256sum -c - \
 && tar -C /usr/local -xzf /tmp/go.tar.gz \
 && rm /tmp/go.tar.gz
RUN curl -fsSLo /tmp/maven.tar.gz "https://archive.apache.org/dist/maven/maven-3/${MAVEN_VERSION}/binaries/apache-maven-${MAVEN_VERSION}-bin.tar.gz" \
 && echo "${MAVEN_SHA512}  /tmp/maven.tar.gz" | sha512sum -c - \
 && tar -C /opt -xzf /tmp/maven.tar.gz \
 && mv "/opt/apache-maven-${MAVEN_VERSION}" /opt/maven \
 && rm /tmp/maven.tar.gz
RUN curl -fsSLo /tmp/gradle.zip "https://services.gradle.org/distributions/gradle-${GRADLE_VERSION}-bin.zip" \
 && echo "${GRADLE_SHA256}  /tmp/gradle.zip" | sha256sum -c - \
 && unzip -q /tmp/gradle.zip -d /opt \
 && mv "/opt/gradle-${GRADLE_VERSION}" /opt/gradle \
 && rm /tmp/gradle.zip
# GOTOOLCHAIN=local: never download another Go (the sandbox sets it too, for other images).
ENV PATH=/usr/local/go/bin:/opt/maven/bin:/opt/gradle/bin:$PATH \
    GOTOOLCHAIN=local
# The build fails here, not a repository's first job, when a toolchain is missing or not the pin
# (grep without -q reads all: with pipefail, a writer cut off early would fail the step).
RUN for tool in python3 pip3 go java javac mvn gradle; do \
      command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 1; }; \
    done \
 && python3 -m venv /tmp/venv-check && /tmp/venv-check/bin/pip --version && rm -rf /tmp/venv-check \
 && go version | grep "go${GO_VERSION} " \
 && mvn --version | grep "^Apache Maven ${MAVEN_VERSION} " \
 && GRADLE_USER_HOME=/tmp/gradle-check gradle --version | grep "^Gradle ${GRADLE_VERSION}$" \
 && rm -rf /tmp/gradle-check
USER autofix

# The default target (`docker build .` builds the last stage): the small image, Node only.
FROM runtime AS default
