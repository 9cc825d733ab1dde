package main

import "testing"

func TestWebhookLoopbackEnv(t *testing.T) {
	if loadConfig(func(string) string { return "" }).WebhookAllowLoopback {
		t.Error("loopback webhook targets allowed by default")
	}
	cfg := loadConfig(func(k string) string {
		if k == envWebhookLoopback {
			return "1"
		}
		return ""
	})
	if !cfg.WebhookAllowLoopback {
		t.Errorf("%s=1 does not allow loopback webhook targets", envWebhookLoopback)
	}
}
