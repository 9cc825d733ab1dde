# The promo server (cmd/promo) as a container: a static binary built in a Go
# stage, run as a non-root user on distroless (no shell, no package manager).
#
#   docker build --build-arg VERSION=v0.1.0 -t promo .
#   docker run -p 8080:8080 -e PROMO_DATABASE_URL=postgres://... promo
#
# cmd/promo/dockerfile_test.go runs this file's `go build` line as it is
# written here, so CI checks the build without docker.

FROM golang:1.26.8 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# VERSION is what `promo version` reports (a release tag); empty: the module
# version from the build information.
ARG VERSION=""
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X github.com/promoengine/promo/internal/server.version=${VERSION}" -o /out/promo ./cmd/promo

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/promo /promo
USER nonroot:nonroot
# Listen on every interface inside the container; keep generated
# credentials in the non-root user's home (mount a volume there to keep them
# across containers, or set PROMO_APP_ID/PROMO_APP_TOKEN and the management
# pair instead). PROMO_ADMIN_ADDR=:9090 moves /metrics off the public port.
ENV PROMO_ADDR=:8080 PROMO_KEYS_FILE=/home/nonroot/promo-keys.env
EXPOSE 8080
ENTRYPOINT ["/promo"]
CMD ["serve"]
