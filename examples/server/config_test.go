package main

import (
	"testing"
)

// The loopback permission for webhooks comes from the environment or the
// -webhook-allow-loopback flag; an unknown flag is an error.
func TestWebhookLoopbackConfig(t *testing.T) {
	t.Parallel()
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == envWebhookLoopback {
				return v
			}
			return ""
		}
	}
	tests := []struct {
		env  string
		args []string
		want bool
	}{
		{"", nil, false},
		{"1", nil, true},
		{"", []string{"-webhook-allow-loopback"}, true},
		{"1", []string{"-webhook-allow-loopback=false"}, false},
	}
	for _, tc := range tests {
		cfg, err := parseFlags(loadConfig(env(tc.env)), tc.args)
		if err != nil || cfg.WebhookAllowLoopback != tc.want {
			t.Errorf("env %q args %q: allow loopback %v, %v; want %v", tc.env, tc.args, cfg.WebhookAllowLoopback, err, tc.want)
		}
	}
	if _, err := parseFlags(loadConfig(env("")), []string{"-nope"}); err == nil {
		t.Error("an unknown flag was accepted")
	}
}

// The spec's uniform list shape comes from the environment or the
// -uniform-lists flag.
func TestUniformListsConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env  string
		args []string
		want bool
	}{
		{"", nil, false},
		{"1", nil, true},
		{"", []string{"-uniform-lists"}, true},
		{"1", []string{"-uniform-lists=false"}, false},
	}
	for _, tc := range tests {
		getenv := func(k string) string {
			if k == envUniformLists {
				return tc.env
			}
			return ""
		}
		cfg, err := parseFlags(loadConfig(getenv), tc.args)
		if err != nil || cfg.UniformLists != tc.want {
			t.Errorf("env %q args %q: uniform lists %v, %v; want %v", tc.env, tc.args, cfg.UniformLists, err, tc.want)
		}
	}
}
