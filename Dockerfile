# goban-bridge container image: multi-stage, small, non-root.
#   docker build -t goban-bridge .            (or: podman build -t goban-bridge .)
#   docker run -d --name goban-bridge \
#     --device /dev/ttyACM0 --device /dev/ttyACM1 --group-add dialout \
#     -v goban-journal:/var/lib/goban-bridge \
#     -v /etc/goban-bridge:/etc/goban-bridge:ro \
#     -p 8080:8080 goban-bridge
# The config must listen on 0.0.0.0 inside the container; see
# deploy/container/goban-bridge.toml and docs/deploy.md.
# deploy/container/build.sh builds it where no registry image can be pulled.

ARG RUST_IMAGE=docker.io/library/rust:1-slim-bookworm
ARG RUNTIME_IMAGE=docker.io/library/debian:bookworm-slim
# "build" compiles in the image; "prebuilt" takes target/container/goban-bridge,
# the host's stripped release build staged by deploy/container/build.sh --prebuilt.
ARG BINARY_STAGE=build

FROM ${RUST_IMAGE} AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p goban-bridge \
 && install -D -m 0755 target/release/goban-bridge /out/goban-bridge \
 && strip /out/goban-bridge

FROM ${RUNTIME_IMAGE} AS prebuilt
COPY target/container/goban-bridge /out/goban-bridge

FROM ${BINARY_STAGE} AS binary

FROM ${RUNTIME_IMAGE}
# curl serves the health check; ca-certificates the MQTT TLS option. The
# base's security updates are applied at build time; apt's lists, caches and
# logs do not stay in the layer.
RUN apt-get update \
 && apt-get upgrade -y --no-install-recommends \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/debconf/*-old \
      /var/log/apt /var/log/dpkg.log /var/log/alternatives.log \
 && useradd --uid 10001 --user-group --groups dialout --no-create-home --no-log-init \
      --home-dir /var/lib/goban-bridge --shell /usr/sbin/nologin goban \
 && install -d -o goban -g goban -m 0750 /var/lib/goban-bridge /etc/goban-bridge
COPY --from=binary /out/goban-bridge /usr/bin/goban-bridge
COPY deploy/container/goban-bridge.toml /etc/goban-bridge/goban-bridge.toml
USER goban
# Two malloc arenas: as the systemd unit, 15-25 MB less in a 512-board hall.
ENV MALLOC_ARENA_MAX=2
WORKDIR /var/lib/goban-bridge
VOLUME ["/var/lib/goban-bridge"]
EXPOSE 8080 1883
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8080/api/v1/health >/dev/null || exit 1
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/goban-bridge"]
CMD ["run", "--config", "/etc/goban-bridge/goban-bridge.toml"]
