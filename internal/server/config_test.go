package server

import (
	"bytes"
	"errors"
	"flag"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// Every setting comes from its variable or its flag (the flag wins);
// booleans accept true/false/1/0; without either the defaults apply.
func TestConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  map[string]string
		args []string
		edit func(*Config)
	}{
		{"defaults", nil, nil, func(*Config) {}},
		{"env", map[string]string{envAddr: ":9090", envDBMaxConns: "7", envWebhookLoopback: "1", envUniformLists: "true",
			envLogLevel: "debug", envLogFormat: "json", envAccessLog: "0", envMetrics: "false", envShutdownTimeout: "3s",
			envTracesExporter: "otlp", envProjectID: "proj_x", envPublicURL: "https://promo.example.com"},
			nil, func(c *Config) {
				c.Addr, c.DBMaxConns, c.WebhookAllowLoopback, c.UniformLists, c.PublicURL = ":9090", 7, true, true, "https://promo.example.com"
				c.LogLevel, c.LogFormat, c.AccessLog, c.Metrics, c.ShutdownTimeout = slog.LevelDebug, "json", false, false, 3*time.Second
				c.TracesExporter, c.ProjectID = "otlp", "proj_x"
			}},
		{"flags win", map[string]string{envAddr: ":9090", envUniformLists: "1", envMetrics: "0"},
			[]string{"-addr", ":7070", "-uniform-lists=false", "-metrics", "-webhook-allow-loopback=1", "-db-max-conns=2", "-log-level=warn"},
			func(c *Config) {
				c.Addr, c.UniformLists, c.Metrics, c.WebhookAllowLoopback, c.DBMaxConns, c.LogLevel = ":7070", false, true, true, 2, slog.LevelWarn
			}},
		{"client key pair", map[string]string{envClientOrigins: "https://shop.example, http://localhost:3000", envClientID: "client-1"},
			[]string{"-client-token", "client-token-0123456789"}, func(c *Config) {
				c.ClientOrigins, c.ClientID, c.ClientToken = []string{"https://shop.example", "http://localhost:3000"}, "client-1", "client-token-0123456789"
			}},
		{"version", nil, []string{"-version"}, func(c *Config) { c.Version = true }},
	}
	for _, tc := range tests {
		got, err := LoadConfig(envOf(tc.env), tc.args, &bytes.Buffer{})
		want := DefaultConfig()
		tc.edit(&want)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
		} else if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
	if got := DefaultConfig().Addr; got != "127.0.0.1:8080" {
		t.Errorf("default address %q, want loopback 127.0.0.1:8080", got)
	}
}

// Invalid values are refused with a message naming the variable or flag.
func TestConfigInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{envUniformLists: "yes"}, nil, `PROMO_UNIFORM_LISTS="yes": want true, false, 1 or 0`},
		{map[string]string{envDBMaxConns: "0"}, nil, `PROMO_DB_MAX_CONNS="0": want a positive integer`},
		{map[string]string{envLogFormat: "xml"}, nil, `PROMO_LOG_FORMAT="xml": want text or json`},
		{map[string]string{envLogLevel: "loud"}, nil, `PROMO_LOG_LEVEL="loud": want debug, info, warn or error`},
		{map[string]string{envShutdownTimeout: "soon"}, nil, `PROMO_SHUTDOWN_TIMEOUT="soon": want a positive duration such as 10s`},
		{map[string]string{envTracesExporter: "zipkin"}, nil, `OTEL_TRACES_EXPORTER="zipkin": want otlp or none`},
		{nil, []string{"-metrics=maybe"}, `invalid boolean value "maybe" for -metrics: want true, false, 1 or 0`},
		{nil, []string{"-nope"}, "flag provided but not defined: -nope"},
		{map[string]string{envClientOrigins: "*"}, nil, `PROMO_CLIENT_ORIGINS="*": want origins scheme://host[:port], separated by commas`},
		{map[string]string{envClientOrigins: "https://shop.example/cart"}, nil, `PROMO_CLIENT_ORIGINS="https://shop.example/cart": want origins scheme://host[:port], separated by commas`},
		{nil, []string{"extra"}, `unexpected argument "extra"`},
		{map[string]string{envPublicURL: "promo.example.com"}, nil, `PROMO_PUBLIC_URL="promo.example.com": want an absolute http or https URL without query, such as https://promo.example.com`},
	}
	for _, tc := range tests {
		_, err := LoadConfig(envOf(tc.env), tc.args, &bytes.Buffer{})
		if err == nil || err.Error() != tc.want {
			t.Errorf("env %v args %q: error %v, want %q", tc.env, tc.args, err, tc.want)
		}
	}
}

// -h lists every setting: its flag, its variable and its default.
func TestUsageListsEverySetting(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if _, err := LoadConfig(envOf(nil), []string{"-h"}, &out); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: %v, want flag.ErrHelp", err)
	}
	for _, s := range settings {
		line := ""
		for l := range strings.Lines(out.String()) {
			if strings.HasPrefix(l, "-"+s.flag+" ") {
				line = l
			}
		}
		if !strings.Contains(line, s.env) || !strings.Contains(line, s.def) {
			t.Errorf("-h line of -%s = %q, want %s and its default %q", s.flag, line, s.env, s.def)
		}
	}
	for _, want := range []string{"-version", "/healthz", "/readyz", "/metrics", "OTEL_EXPORTER_OTLP_ENDPOINT"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("-h does not mention %s", want)
		}
	}
}

// The version comes from the build information.
func TestVersion(t *testing.T) {
	t.Parallel()
	if v := Version(); v == "" || v == "unknown" {
		t.Errorf("version() = %q, want the module version from the build information", v)
	}
}
