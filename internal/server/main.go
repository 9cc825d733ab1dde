package server

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// Main runs the example server: flags and variables (-h lists them),
// -version, then [Run] until ctx is done. It returns the exit code.
func Main(ctx context.Context, name string, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	return serveCommand(ctx, name, args, getenv, stdout, stderr)
}

// serveCommand loads the configuration of program name and serves it.
func serveCommand(ctx context.Context, name string, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cfg, err := loadConfig(name, getenv, args, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case err != nil:
		_, _ = fmt.Fprintf(stderr, "promo %s: invalid configuration: %v\n", name, err)
		return 2
	case cfg.Version:
		_, _ = fmt.Fprintln(stdout, "promo", Version())
		return 0
	}
	if err := Run(ctx, cfg, stdout, NewLogger(cfg, stderr)); err != nil {
		_, _ = fmt.Fprintf(stderr, "promo %s: %v\n", name, err)
		return 1
	}
	return 0
}

// commandUsage is the promo command's help.
const commandUsage = `promo: the promotion engine's REST API server.

Usage:
  promo serve [flags]        serve the API (promo serve -h lists the flags)
  promo migrate up [flags]   apply the pending migrations to PROMO_DATABASE_URL
  promo migrate status       list the pending migrations; exit 1 unless current
  promo version              print the version

serve migrates the database at start unless -migrate=false, which only
checks that nothing is pending (a role without DDL rights can then serve);
both refuse a database migrated by a newer promo.
`

// Command runs the promo command (cmd/promo) with args (without the
// program name) and returns its exit code.
func Command(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		_, _ = io.WriteString(stderr, commandUsage)
		return 2
	}
	switch args[0] {
	case "serve":
		return serveCommand(ctx, "serve", args[1:], getenv, stdout, stderr)
	case "migrate":
		if len(args) < 2 || (args[1] != "up" && args[1] != "status") {
			_, _ = io.WriteString(stderr, "promo migrate: want up or status\n\n"+commandUsage)
			return 2
		}
		return migrateCommand(ctx, args[1], args[2:], getenv, stdout, stderr)
	case "version", "-version", "--version":
		_, _ = fmt.Fprintln(stdout, "promo", Version())
		return 0
	case "help", "-h", "-help", "--help":
		_, _ = io.WriteString(stdout, commandUsage)
		return 0
	}
	_, _ = fmt.Fprintf(stderr, "promo: unknown command %q\n\n%s", args[0], commandUsage)
	return 2
}

// migrateCommand runs `promo migrate up` or `promo migrate status` on the
// configured database.
func migrateCommand(ctx context.Context, sub string, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	name := "migrate " + sub
	cfg, err := loadConfig(name, getenv, args, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case err != nil:
		_, _ = fmt.Fprintf(stderr, "promo %s: invalid configuration: %v\n", name, err)
		return 2
	case cfg.DatabaseURL == "":
		_, _ = fmt.Fprintf(stderr, "promo %s: set %s (or -database-url): the memory store has no schema\n", name, envDatabaseURL)
		return 2
	}
	db, err := openDB(cfg)
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "promo %s: %v\n", name, err)
		return 1
	}
	defer func() { _ = db.Close() }()
	if sub == "up" {
		err = prepareSchema(ctx, db, true)
	}
	if err == nil {
		err = printStatus(ctx, db, stdout)
	}
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "promo %s: %v\n", name, err)
		return 1
	}
	return 0
}

// NewLogger is the server's logger: cfg's level and format on w.
func NewLogger(cfg Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// joinOrNone is the versions joined by commas, or "none".
func joinOrNone(vs []string) string {
	if len(vs) == 0 {
		return "none"
	}
	return strings.Join(vs, ", ")
}
