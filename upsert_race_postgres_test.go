package promo_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/storage/bunstore"
)

// Concurrent upserts naming one new source_id, from two engines over one
// PostgreSQL, all succeed: the writer that loses the insert race retries as
// the update it is, and exactly one row holds the source_id.
func TestConcurrentUpsertsBySourceID(t *testing.T) {
	db, other := migratedDB(t)
	eng1, err := promo.New(bunstore.New(db), promo.WithLogger(quietLogger()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng1.Close() })
	eng2, err := promo.New(bunstore.New(other), promo.WithLogger(quietLogger()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = eng2.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := eng1.Projects().Create(ctx, project.Params{Name: "Shop"})
	if err != nil {
		t.Fatal(err)
	}
	engines := []*promo.Engine{eng1, eng2}

	const rounds, writers = 5, 8
	kinds := []struct {
		name   string
		upsert func(e *promo.Engine, src string, i int) error
		count  func(src string) (string, error) // the id holding src
	}{
		{"product", func(e *promo.Engine, src string, i int) error {
			_, err := e.Catalog().CreateProduct(ctx, p.ID, catalog.ProductParams{SourceID: &src, Name: promo.Ptr(fmt.Sprint("n", i))})
			return err
		}, func(src string) (string, error) {
			pr, err := eng1.Catalog().GetProduct(ctx, p.ID, src)
			if err != nil {
				return "", err
			}
			return pr.ID, nil
		}},
		{"customer", func(e *promo.Engine, src string, i int) error {
			_, err := e.Customers().Upsert(ctx, p.ID, customer.Params{SourceID: &src, Name: promo.Ptr(fmt.Sprint("n", i))})
			return err
		}, func(src string) (string, error) {
			c, err := eng1.Customers().Get(ctx, p.ID, src)
			if err != nil {
				return "", err
			}
			return c.ID, nil
		}},
		{"order", func(e *promo.Engine, src string, i int) error {
			// Each order also upserts one shared new customer.
			_, err := e.Orders().Create(ctx, p.ID, order.Params{SourceID: order.Some(src), Amount: promo.Ptr[int64](100 + int64(i)),
				Customer: &customer.Params{SourceID: promo.Ptr("buyer-" + src)}})
			return err
		}, func(src string) (string, error) {
			o, err := eng1.Orders().Get(ctx, p.ID, src)
			if err != nil {
				return "", err
			}
			return o.ID, nil
		}},
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			for round := range rounds {
				src := fmt.Sprintf("%s-%d", k.name, round)
				var wg sync.WaitGroup
				errs := make(chan error, writers)
				start := make(chan struct{})
				for i := range writers {
					wg.Go(func() {
						<-start
						errs <- k.upsert(engines[i%2], src, i)
					})
				}
				close(start)
				wg.Wait()
				close(errs)
				for err := range errs {
					if err != nil {
						t.Errorf("round %d: concurrent upsert of %s: %v", round, src, err)
					}
				}
				if _, err := k.count(src); err != nil {
					t.Errorf("round %d: %s not stored: %v", round, src, err)
				}
			}
		})
	}
	if ctx.Err() != nil {
		t.Fatalf("the upserts did not end within the deadline: %v", ctx.Err())
	}
}
