package auth_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/promoengine/promo/auth"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage/memory"
)

// countingStore counts the app key reads that reach the store.
type countingStore struct {
	auth.Store
	gets atomic.Int64
}

func (s *countingStore) GetAppKey(ctx context.Context, id string) (*auth.AppKey, error) {
	s.gets.Add(1)
	return s.Store.GetAppKey(ctx, id)
}

// An unknown app id is remembered for a moment: repeating it answers 401
// without reading the store, until the entry expires or this engine creates
// the id.
func TestUnknownAppIDIsCachedBriefly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := &countingStore{Store: memory.New()}
	clock := promotype.NewManualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	env := promotype.DefaultEnv()
	env.Clock = clock
	svc := auth.NewService(store, env)
	unauthorized := func(id string) {
		t.Helper()
		if _, err := svc.AuthenticateApp(ctx, id, "some-secret-0123456789"); !errors.Is(err, promotype.ErrUnauthorized) {
			t.Fatalf("AuthenticateApp(%s) = %v, want 401", id, err)
		}
	}
	for range 100 {
		unauthorized("ghost")
	}
	if n := store.gets.Load(); n != 1 {
		t.Errorf("100 requests with one unknown id read the store %d times, want 1", n)
	}
	clock.Advance(time.Minute)
	unauthorized("ghost")
	if n := store.gets.Load(); n != 2 {
		t.Errorf("after expiry: %d store reads, want 2", n)
	}
	// Created through this engine, the id works at once.
	if _, err := svc.CreateAppKey(ctx, "proj_1", auth.KeyParams{ID: "ghost", Secret: "ghost-secret-0123456789"}); err != nil {
		t.Fatal(err)
	}
	if p, err := svc.AuthenticateApp(ctx, "ghost", "ghost-secret-0123456789"); err != nil || p != "proj_1" {
		t.Errorf("created id: %q, %v", p, err)
	}
}
