# draguard image: build on Debian 12, run on Debian 12 slim as a non-root user (65532).
#   docker build -t draguard .
#   docker run --rm -v "$PWD:/src:ro" -w /src draguard lint .
# Or `make image` (scripts/build-image: docker or podman, checks the image, prints its size:
# 97.5 MB, docs/ci.md#container-image).
FROM debian:12 AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      build-essential cmake ninja-build pkg-config ca-certificates libjemalloc-dev \
      libboost1.81-dev libssl-dev libre2-dev libyaml-cpp-dev libyaml-dev nlohmann-json3-dev \
      curl openssl \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# The profile-guided build (scripts/build-pgo): built, trained on the webhook's work (curl and
# openssl drive it; build stage only), rebuilt, checked to answer as before.
RUN scripts/build-pgo /build \
 && strip /build/cli/draguard

# Runtime: the binary, the shared libraries it links and the CA bundle (copied from the build
# stage: the ca-certificates package would also bring the openssl CLI). Nothing else.
FROM debian:12-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libssl3 libre2-9 libyaml-cpp0.7 libyaml-0-2 libjemalloc2 \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/log/apt /var/log/dpkg.log \
 && groupadd --gid 65532 draguard \
 && useradd --uid 65532 --gid 65532 --no-create-home --shell /usr/sbin/nologin draguard
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /build/cli/draguard /usr/local/bin/draguard
USER 65532:65532
EXPOSE 8443
ENTRYPOINT ["/usr/local/bin/draguard"]
CMD ["serve", "--listen=:8443", "--tls-cert-file=/etc/draguard/tls/tls.crt", "--tls-private-key-file=/etc/draguard/tls/tls.key"]
