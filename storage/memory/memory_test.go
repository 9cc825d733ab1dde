package memory_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/memory"
	"github.com/promoengine/promo/storage/storagetest"
)

func TestConformance(t *testing.T) {
	storagetest.Run(t, func(testing.TB) storage.Store { return memory.New() })
}

// A call through the store (not the transaction's tx) inside one of its
// transactions would wait for the lock the transaction holds: it panics
// with a message saying so instead of hanging.
func TestCallOutsideTheTxPanics(t *testing.T) {
	s := memory.New()
	ctx := t.Context()
	var recovered any
	err := s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
		defer func() { recovered = recover() }()
		_, err := s.GetProject(ctx, "proj_x")
		return err
	})
	if err != nil {
		t.Fatalf("RunInTx: %v", err)
	}
	msg, _ := recovered.(string)
	if !strings.Contains(msg, "inside one of its own transactions") {
		t.Fatalf("recovered %v, want the deadlock panic", recovered)
	}
	// The lock was released: the store is usable afterwards.
	if _, err := s.GetProject(ctx, "proj_x"); !errors.Is(err, promotype.ErrNotFound) {
		t.Fatalf("GetProject after: %v, want not found", err)
	}
}
