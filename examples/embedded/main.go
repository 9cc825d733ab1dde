package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/examples/internal/tour"
	"github.com/promoengine/promo/storage/memory"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "embedded:", err)
		os.Exit(1)
	}
}

// run builds an engine over a fresh memory store and walks through it.
func run(ctx context.Context, w io.Writer) error {
	eng, err := promo.New(memory.New())
	if err != nil {
		return err
	}
	return tour.Run(ctx, eng, w)
}
