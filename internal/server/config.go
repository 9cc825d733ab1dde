package server

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"runtime/debug"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/promoengine/promo/auth"
)

// Environment variables read by the server; each is also a flag (see
// settings).
const (
	envAddr            = "PROMO_ADDR"
	envDatabaseURL     = "PROMO_DATABASE_URL"
	envDBMaxConns      = "PROMO_DB_MAX_CONNS"
	envProjectID       = "PROMO_PROJECT_ID"
	envAppID           = "PROMO_APP_ID"
	envAppToken        = "PROMO_APP_TOKEN"
	envMgmtID          = "PROMO_MANAGEMENT_ID"
	envMgmtToken       = "PROMO_MANAGEMENT_TOKEN"
	envClientID        = "PROMO_CLIENT_ID"
	envClientToken     = "PROMO_CLIENT_TOKEN"
	envClientOrigins   = "PROMO_CLIENT_ORIGINS"
	envWebhookLoopback = "PROMO_WEBHOOK_ALLOW_LOOPBACK"
	envUniformLists    = "PROMO_UNIFORM_LISTS"
	envPublicURL       = "PROMO_PUBLIC_URL"
	envLogLevel        = "PROMO_LOG_LEVEL"
	envLogFormat       = "PROMO_LOG_FORMAT"
	envAccessLog       = "PROMO_ACCESS_LOG"
	envMetrics         = "PROMO_METRICS"
	envShutdownTimeout = "PROMO_SHUTDOWN_TIMEOUT"
	envTracesExporter  = "OTEL_TRACES_EXPORTER"
	envMigrate         = "PROMO_MIGRATE"
	envAdminAddr       = "PROMO_ADMIN_ADDR"
	envKeysFile        = "PROMO_KEYS_FILE"
)

// defaultAddr is where the server listens without PROMO_ADDR: loopback
// only, so a development server is not reachable from the network by
// accident. Containers set PROMO_ADDR=:8080.
const defaultAddr = "127.0.0.1:8080"

// config is the server's configuration. Empty credentials are generated.
type Config struct {
	Addr        string
	DatabaseURL string
	DBMaxConns  int // 0: bunstore's default (4 per CPU)
	ProjectID   string
	AppID       string
	AppToken    string
	MgmtID      string
	MgmtToken   string
	// ClientOrigins are the allowed origins of the project's client key
	// pair (/client/v1); none: no client key pair is made.
	ClientOrigins []string
	ClientID      string
	ClientToken   string

	// WebhookAllowLoopback lets webhook target URLs point at loopback
	// addresses.
	WebhookAllowLoopback bool
	// UniformLists answers lists in the hosted API's data shape; see
	// httpadapter.WithUniformLists.
	UniformLists bool
	// PublicURL is the API's public base URL; see
	// httpadapter.WithPublicBaseURL.
	PublicURL string

	LogLevel  slog.Level
	LogFormat string // "text" or "json"
	AccessLog bool   // one line per request
	Metrics   bool   // serve /metrics
	// TracesExporter is OTEL_TRACES_EXPORTER: "otlp" turns tracing on
	// (the exporter reads the other OTEL_* variables), "none" or empty
	// leaves it off.
	TracesExporter string

	// ShutdownTimeout bounds the graceful shutdown: requests still running
	// after it are cut off.
	ShutdownTimeout time.Duration

	// Migrate applies the pending migrations at start (the default);
	// false only checks that none is pending, so a role without DDL
	// rights can serve a schema migrated by `promo migrate up`.
	Migrate bool
	// AdminAddr, when set, is a second listener for /metrics, /healthz
	// and /readyz; /metrics then leaves the public address.
	AdminAddr string
	// KeysFile, when set, keeps the generated credentials: read at start
	// for the ones not configured, written when new ones are generated, so
	// a restart reuses them instead of adding key pairs.
	KeysFile string

	Version bool // -version: print the version and exit
}

// setting is one configuration entry: its environment variable, its flag,
// its default as shown, and how a value is applied.
type setting struct {
	env, flag, def, usage string
	boolean               bool
	set                   func(c *Config, v string) error
}

func str(p func(*Config) *string) func(*Config, string) error {
	return func(c *Config, v string) error { *p(c) = v; return nil }
}

func boolean(p func(*Config) *bool) func(*Config, string) error {
	return func(c *Config, v string) error {
		b, err := parseBool(v)
		*p(c) = b
		return err
	}
}

// parseBool accepts true/false/1/0 (any case).
func parseBool(v string) (bool, error) {
	switch strings.ToLower(v) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, errors.New("want true, false, 1 or 0")
}

// settings is every setting, in the order -h lists them.
var settings = []setting{
	{env: envAddr, flag: "addr", def: defaultAddr, usage: "listen address (containers: :8080)",
		set: str(func(c *Config) *string { return &c.Addr })},
	{env: envDatabaseURL, flag: "database-url", def: "memory store", usage: "PostgreSQL DSN, migrated at start",
		set: str(func(c *Config) *string { return &c.DatabaseURL })},
	{env: envDBMaxConns, flag: "db-max-conns", def: "4 per CPU", usage: "size of the PostgreSQL connection pool",
		set: func(c *Config, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return errors.New("want a positive integer")
			}
			c.DBMaxConns = n
			return nil
		}},
	{env: envProjectID, flag: "project-id", def: "the existing project, else generated", usage: "project served; created when missing",
		set: str(func(c *Config) *string { return &c.ProjectID })},
	{env: envAppID, flag: "app-id", def: "generated", usage: "X-App-Id of the project's key pair",
		set: str(func(c *Config) *string { return &c.AppID })},
	{env: envAppToken, flag: "app-token", def: "generated", usage: "X-App-Token of that key pair (16+ characters)",
		set: str(func(c *Config) *string { return &c.AppToken })},
	{env: envMgmtID, flag: "management-id", def: "generated", usage: "X-Management-Id of the management key",
		set: str(func(c *Config) *string { return &c.MgmtID })},
	{env: envMgmtToken, flag: "management-token", def: "generated", usage: "X-Management-Token of that key (16+ characters)",
		set: str(func(c *Config) *string { return &c.MgmtToken })},
	{env: envClientOrigins, flag: "client-origins", def: "none (no client key pair)",
		usage: "comma-separated origins (https://shop.example) allowed to call /client/v1 with the project's client key pair",
		set: func(c *Config, v string) error {
			c.ClientOrigins = nil
			for o := range strings.SplitSeq(v, ",") {
				if o = strings.TrimSpace(o); o != "" {
					if _, err := auth.NormalizeOrigin(o); err != nil {
						return errors.New("want origins scheme://host[:port], separated by commas")
					}
					c.ClientOrigins = append(c.ClientOrigins, o)
				}
			}
			return nil
		}},
	{env: envClientID, flag: "client-id", def: "generated (with origins)", usage: "X-Client-Application-Id of the project's client key pair",
		set: str(func(c *Config) *string { return &c.ClientID })},
	{env: envClientToken, flag: "client-token", def: "generated (with origins)", usage: "X-Client-Token of that key pair (16+ characters)",
		set: str(func(c *Config) *string { return &c.ClientToken })},
	{env: envWebhookLoopback, flag: "webhook-allow-loopback", def: "false", boolean: true,
		usage: "let webhook configurations target loopback addresses (a receiver on this machine)",
		set:   boolean(func(c *Config) *bool { return &c.WebhookAllowLoopback })},
	{env: envUniformLists, flag: "uniform-lists", def: "false", boolean: true,
		usage: "answer every list as data_ref:\"data\" (the spec's shape) instead of the hosted service's shapes",
		set:   boolean(func(c *Config) *bool { return &c.UniformLists })},
	{env: envPublicURL, flag: "public-url", def: "each request's scheme and host",
		usage: "public base URL of the API (https://promo.example.com), on which answered URLs (an export's result.url) are made absolute",
		set: func(c *Config, v string) error {
			u, err := url.Parse(v)
			if v != "" && (err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "") {
				return errors.New("want an absolute http or https URL without query, such as https://promo.example.com")
			}
			c.PublicURL = v
			return nil
		}},
	{env: envLogLevel, flag: "log-level", def: "info", usage: "debug, info, warn or error",
		set: func(c *Config, v string) error {
			switch strings.ToLower(v) {
			case "debug", "info", "warn", "error":
				return c.LogLevel.UnmarshalText([]byte(v))
			}
			return errors.New("want debug, info, warn or error")
		}},
	{env: envLogFormat, flag: "log-format", def: "text", usage: "text or json",
		set: func(c *Config, v string) error {
			if v != "text" && v != "json" {
				return errors.New("want text or json")
			}
			c.LogFormat = v
			return nil
		}},
	{env: envAccessLog, flag: "access-log", def: "true", boolean: true, usage: "log one line per request",
		set: boolean(func(c *Config) *bool { return &c.AccessLog })},
	{env: envMetrics, flag: "metrics", def: "true", boolean: true, usage: "serve Prometheus metrics at /metrics",
		set: boolean(func(c *Config) *bool { return &c.Metrics })},
	{env: envTracesExporter, flag: "otel-traces-exporter", def: "none",
		usage: "otlp sends traces to OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT (the other OTEL_* variables apply); none turns tracing off",
		set: func(c *Config, v string) error {
			if v != "otlp" && v != "none" {
				return errors.New("want otlp or none")
			}
			c.TracesExporter = v
			return nil
		}},
	{env: envMigrate, flag: "migrate", def: "true", boolean: true,
		usage: "apply pending migrations at start; false only checks that none is pending (no DDL rights needed)",
		set:   boolean(func(c *Config) *bool { return &c.Migrate })},
	{env: envAdminAddr, flag: "admin-addr", def: "none (all on -addr)",
		usage: "second listen address for /metrics, /healthz and /readyz; /metrics then leaves -addr",
		set:   str(func(c *Config) *string { return &c.AdminAddr })},
	{env: envKeysFile, flag: "keys-file", def: "none",
		usage: "file keeping the generated credentials (mode 0600): read at start, written when pairs are generated",
		set:   str(func(c *Config) *string { return &c.KeysFile })},
	{env: envShutdownTimeout, flag: "shutdown-timeout", def: "10s", usage: "how long requests in flight get at shutdown",
		set: func(c *Config, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return errors.New("want a positive duration such as 10s")
			}
			c.ShutdownTimeout = d
			return nil
		}},
}

// defaultConfig is the configuration without any variable or flag.
func DefaultConfig() Config {
	return Config{Addr: defaultAddr, LogLevel: slog.LevelInfo, LogFormat: "text", AccessLog: true, Metrics: true,
		TracesExporter: "none", ShutdownTimeout: 10 * time.Second, Migrate: true}
}

// loadConfig reads the environment through getenv (os.Getenv in main),
// then the command line args, which override it. An invalid value is an
// error naming the variable or flag; -h prints the usage to out and
// returns flag.ErrHelp.
func LoadConfig(getenv func(string) string, args []string, out io.Writer) (Config, error) {
	return loadConfig("server", getenv, args, out)
}

// loadConfig is LoadConfig for the program name (in -h).
func loadConfig(name string, getenv func(string) string, args []string, out io.Writer) (Config, error) {
	cfg := DefaultConfig()
	for _, s := range settings {
		if v := getenv(s.env); v != "" {
			if err := s.set(&cfg, v); err != nil {
				return cfg, fmt.Errorf("%s=%q: %v", s.env, v, err)
			}
		}
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(out)
	for _, s := range settings {
		set := func(v string) error { return s.set(&cfg, v) }
		if s.boolean {
			fs.BoolFunc(s.flag, s.usage, set)
		} else {
			fs.Func(s.flag, s.usage, set)
		}
	}
	fs.BoolVar(&cfg.Version, "version", false, "print the version and exit")
	fs.Usage = func() { usage(name, out) }
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return cfg, nil
}

// usage lists every setting with its variable and default.
func usage(name string, out io.Writer) {
	fmt.Fprintf(out, "promo %s: the promo REST API over the memory store or PostgreSQL.\n\n", Version())
	fmt.Fprintf(out, "Usage: %s [flags]. Each flag may be set by its environment variable instead; a flag wins.\n", name)
	fmt.Fprintln(out, "Booleans accept true, false, 1 or 0 (-flag alone means true).")
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FLAG\tVARIABLE\tDEFAULT\tMEANING")
	for _, s := range settings {
		fmt.Fprintf(tw, "-%s\t%s\t%s\t%s\n", s.flag, s.env, s.def, s.usage)
	}
	fmt.Fprintln(tw, "-version\t\t\tprint the version and exit")
	_ = tw.Flush()
	fmt.Fprintln(out)
	fmt.Fprintln(out, "Tracing reads the standard OpenTelemetry variables when on: OTEL_EXPORTER_OTLP_ENDPOINT,")
	fmt.Fprintln(out, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME,")
	fmt.Fprintln(out, "OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG.")
	fmt.Fprintln(out)
	fmt.Fprintln(out, "Endpoints besides the API: /healthz (alive), /readyz (store reachable and migrated,")
	fmt.Fprintln(out, "background services running), /metrics (Prometheus); on -admin-addr when set.")
}

// version, when set at link time, is the version [Version] reports:
//
//	go build -ldflags "-X github.com/promoengine/promo/internal/server.version=v0.1.0" ./cmd/promo
//
// The container recipe (Dockerfile) sets it from its VERSION argument,
// since a build without the repository's .git cannot read the tag.
var version string

// Version is the version set at link time when there is one, else the
// module version from the build information: the tag for `go install
// ...@v0.1.0` or a build of a tagged clean checkout, a pseudo-version or
// "(devel)" otherwise, with the VCS revision when the build recorded it.
func Version() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev != "" {
		v += " " + rev[:min(12, len(rev))] + dirty
	}
	return v
}
