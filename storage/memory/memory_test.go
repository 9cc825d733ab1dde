package memory_test

import (
	"testing"

	"github.com/promoengine/promo/storage"
	"github.com/promoengine/promo/storage/memory"
	"github.com/promoengine/promo/storage/storagetest"
)

func TestConformance(t *testing.T) {
	storagetest.Run(t, func(testing.TB) storage.Store { return memory.New() })
}
