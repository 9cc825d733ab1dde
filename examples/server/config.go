package main

import (
	"flag"
	"time"
)

// Environment variables read by the server.
const (
	envAddr        = "PROMO_ADDR"             // listen address, default :8080
	envDatabaseURL = "PROMO_DATABASE_URL"     // PostgreSQL DSN; memory store when empty
	envProjectID   = "PROMO_PROJECT_ID"       // project to serve; created when missing
	envAppID       = "PROMO_APP_ID"           // X-App-Id of the project's key pair
	envAppToken    = "PROMO_APP_TOKEN"        // X-App-Token of that key pair
	envMgmtID      = "PROMO_MANAGEMENT_ID"    // X-Management-Id of the management key
	envMgmtToken   = "PROMO_MANAGEMENT_TOKEN" // X-Management-Token of that key

	// envWebhookLoopback set to 1 lets webhook configurations target
	// loopback addresses (a receiver on the same machine, for development).
	envWebhookLoopback = "PROMO_WEBHOOK_ALLOW_LOOPBACK"

	// envUniformLists set to 1 answers every list in the spec's uniform
	// data_ref:"data" shape instead of the hosted service's shapes.
	envUniformLists = "PROMO_UNIFORM_LISTS"
)

// defaultAddr is where the server listens without PROMO_ADDR.
const defaultAddr = ":8080"

// config is the server's configuration. Empty credentials are generated.
type config struct {
	Addr        string
	DatabaseURL string
	ProjectID   string
	AppID       string
	AppToken    string
	MgmtID      string
	MgmtToken   string

	// WebhookAllowLoopback lets webhook target URLs point at loopback
	// addresses (PROMO_WEBHOOK_ALLOW_LOOPBACK=1).
	WebhookAllowLoopback bool

	// UniformLists answers lists in the spec's data shape
	// (PROMO_UNIFORM_LISTS=1, -uniform-lists); see httpadapter.WithUniformLists.
	UniformLists bool

	// ShutdownTimeout bounds the graceful shutdown: requests still running
	// after it are cut off.
	ShutdownTimeout time.Duration
}

// loadConfig reads the configuration through getenv (os.Getenv in main).
func loadConfig(getenv func(string) string) config {
	cfg := config{
		Addr:            getenv(envAddr),
		DatabaseURL:     getenv(envDatabaseURL),
		ProjectID:       getenv(envProjectID),
		AppID:           getenv(envAppID),
		AppToken:        getenv(envAppToken),
		MgmtID:          getenv(envMgmtID),
		MgmtToken:       getenv(envMgmtToken),
		ShutdownTimeout: 10 * time.Second,

		WebhookAllowLoopback: getenv(envWebhookLoopback) == "1",
		UniformLists:         getenv(envUniformLists) == "1",
	}
	if cfg.Addr == "" {
		cfg.Addr = defaultAddr
	}
	return cfg
}

// parseFlags applies the command line to cfg: -webhook-allow-loopback
// turns WebhookAllowLoopback on, -uniform-lists UniformLists.
func parseFlags(cfg config, args []string) (config, error) {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.BoolVar(&cfg.WebhookAllowLoopback, "webhook-allow-loopback", cfg.WebhookAllowLoopback,
		"let webhook configurations target loopback addresses (a receiver on this machine)")
	fs.BoolVar(&cfg.UniformLists, "uniform-lists", cfg.UniformLists,
		"answer every list as data_ref:\"data\" (the spec's shape) instead of the hosted service's per-endpoint shape")
	err := fs.Parse(args)
	return cfg, err
}
