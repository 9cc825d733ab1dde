package storagetest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/promoengine/promo/imports"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/storage"
)

// purgeEntity is how the purge test writes and reads one entity's rows.
type purgeEntity struct {
	entity imports.MetadataEntity
	// insert stores row n of the project with metadata m; bin, when set,
	// moves it to the bin.
	insert func(t *testing.T, s storage.Store, p string, n int, m promotype.Metadata)
	bin    func(t *testing.T, s storage.Store, p string, n int)
	// get reads row n's metadata and its updated_at (nil if none).
	get func(t *testing.T, s storage.Store, p string, n int) (promotype.Metadata, *promotype.Time)
}

var purgeEntities = []purgeEntity{
	{
		entity: imports.PurgeCampaigns,
		insert: func(t *testing.T, s storage.Store, p string, n int, m promotype.Metadata) {
			c := fullCampaign(p, n)
			c.Metadata = m
			must(t, s.InsertCampaign(ctx, c))
		},
		bin: func(t *testing.T, s storage.Store, p string, n int) {
			must(t, s.BinCampaign(ctx, p, fullCampaign(p, n).ID, at(90)))
		},
		get: func(t *testing.T, s storage.Store, p string, n int) (promotype.Metadata, *promotype.Time) {
			c, err := s.GetCampaign(ctx, p, fullCampaign(p, n).ID)
			must(t, err)
			return c.Metadata, c.UpdatedAt
		},
	},
	{
		entity: imports.PurgeCustomers,
		insert: func(t *testing.T, s storage.Store, p string, n int, m promotype.Metadata) {
			c := customerFixture(p, n)
			c.Metadata = m
			must(t, s.InsertCustomer(ctx, c))
		},
		bin: func(t *testing.T, s storage.Store, p string, n int) {
			must(t, s.BinCustomer(ctx, p, customerFixture(p, n).ID, at(90)))
		},
		get: func(t *testing.T, s storage.Store, p string, n int) (promotype.Metadata, *promotype.Time) {
			c, err := s.GetCustomer(ctx, p, customerFixture(p, n).ID)
			must(t, err)
			return c.Metadata, c.UpdatedAt
		},
	},
	{
		entity: imports.PurgeProducts,
		insert: func(t *testing.T, s storage.Store, p string, n int, m promotype.Metadata) {
			pr := product(p, n)
			pr.Metadata = m
			must(t, s.InsertProduct(ctx, pr))
		},
		bin: func(t *testing.T, s storage.Store, p string, n int) {
			must(t, s.BinProduct(ctx, p, product(p, n).ID, at(90)))
		},
		get: func(t *testing.T, s storage.Store, p string, n int) (promotype.Metadata, *promotype.Time) {
			pr, err := s.GetProduct(ctx, p, product(p, n).ID)
			must(t, err)
			return pr.Metadata, pr.UpdatedAt
		},
	},
	{
		entity: imports.PurgeVouchers,
		insert: func(t *testing.T, s storage.Store, p string, n int, m promotype.Metadata) {
			v := discountVoucher(p, "", n)
			v.Metadata = m
			must(t, s.InsertVoucher(ctx, v))
		},
		bin: func(t *testing.T, s storage.Store, p string, n int) {
			must(t, s.BinVoucher(ctx, p, discountVoucher(p, "", n).ID, at(90)))
		},
		get: func(t *testing.T, s storage.Store, p string, n int) (promotype.Metadata, *promotype.Time) {
			v, err := s.GetVoucher(ctx, p, discountVoucher(p, "", n).ID)
			must(t, err)
			return v.Metadata, v.UpdatedAt
		},
	},
	{
		entity: imports.PurgeOrders,
		insert: func(t *testing.T, s storage.Store, p string, n int, m promotype.Metadata) {
			o := orderFixture(p, n)
			o.Metadata = m
			must(t, s.InsertOrder(ctx, o))
		},
		get: func(t *testing.T, s storage.Store, p string, n int) (promotype.Metadata, *promotype.Time) {
			o, err := s.GetOrder(ctx, p, orderFixture(p, n).ID)
			must(t, err)
			return o.Metadata, o.UpdatedAt
		},
	},
}

// testMetadataPurge covers imports.MetadataPurgeStore for each entity: a
// count of the rows holding a key (binned ones too), then purges of a few
// rows at a time in id order from a cursor, which remove that key only,
// change nothing else (updated_at included), leave another project alone,
// and are undone with their transaction.
func testMetadataPurge(t *testing.T, newStore Factory) {
	for _, e := range purgeEntities {
		t.Run(string(e.entity), func(t *testing.T) {
			s := newStore(t)
			p := newProject(t, s, "proj_a")
			other := newProject(t, s, "proj_b")
			const rows = 7
			holds := func(n int) bool { return n%3 != 0 } // rows 1, 2, 4, 5, 7 hold the key
			for n := 1; n <= rows; n++ {
				m := promotype.Metadata{"keep": fmt.Sprintf("k%d", n)}
				if holds(n) {
					m["color"] = "red"
				}
				e.insert(t, s, p, n, m)
				e.insert(t, s, other, n, promotype.Metadata{"color": "blue"})
			}
			// Row 2 goes to the bin (where a read cannot see it: the counts
			// show its key is purged too).
			readable := func(n int) bool { return e.bin == nil || n != 2 }
			before := map[int]*promotype.Time{}
			for n := 1; n <= rows; n++ {
				_, before[n] = e.get(t, s, p, n)
			}
			if e.bin != nil {
				e.bin(t, s, p, 2)
			}
			count, err := s.CountMetadataKey(ctx, p, e.entity, "color")
			must(t, err)
			if count != 5 {
				t.Fatalf("count %d, want 5", count)
			}
			if n, err := s.CountMetadataKey(ctx, p, e.entity, "nope"); err != nil || n != 0 {
				t.Fatalf("count of a missing key: %d %v", n, err)
			}

			// A purge in a transaction that fails changes nothing.
			boom := errors.New("boom")
			err = s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error {
				if _, _, err := tx.PurgeMetadataKey(ctx, p, e.entity, "color", "", 100); err != nil {
					return err
				}
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("rolled back purge: %v", err)
			}
			if n, _ := s.CountMetadataKey(ctx, p, e.entity, "color"); n != 5 {
				t.Fatalf("after a rolled back purge %d rows hold the key, want 5", n)
			}

			after, done := "", 0
			for range 10 {
				last, n, err := s.PurgeMetadataKey(ctx, p, e.entity, "color", after, 2)
				must(t, err)
				if n > 2 {
					t.Fatalf("a purge of limit 2 changed %d rows", n)
				}
				if n == 0 {
					break
				}
				if last <= after {
					t.Fatalf("cursor %q after %q", last, after)
				}
				after, done = last, done+n
			}
			if done != 5 {
				t.Errorf("purged %d rows, want 5", done)
			}
			if n, _ := s.CountMetadataKey(ctx, p, e.entity, "color"); n != 0 {
				t.Errorf("after the purge %d rows hold the key", n)
			}
			for n := 1; n <= rows; n++ {
				if readable(n) {
					m, updated := e.get(t, s, p, n)
					diff(t, fmt.Sprintf("row %d metadata", n), promotype.Metadata{"keep": fmt.Sprintf("k%d", n)}, m)
					diff(t, fmt.Sprintf("row %d updated_at", n), before[n], updated)
				}
				om, _ := e.get(t, s, other, n)
				diff(t, fmt.Sprintf("project b row %d", n), promotype.Metadata{"color": "blue"}, om)
			}
		})
	}
	t.Run("VoucherBatch", func(t *testing.T) {
		s := newStore(t)
		p := newProject(t, s, "proj_a")
		b := batchOf(p, "camp_1", 1, 5, at(1))
		b.Template.Metadata = promotype.Metadata{"color": "red", "keep": "x"}
		must(t, s.RunInTx(ctx, func(ctx context.Context, tx storage.Tx) error { return second(tx.InsertBatch(ctx, b)) }))
		must(t, s.BinVoucher(ctx, p, "v_b1_0001", at(5)))
		count, err := s.CountMetadataKey(ctx, p, imports.PurgeVouchers, "color")
		must(t, err)
		if count != 5 {
			t.Fatalf("count %d, want 5", count)
		}
		after, done := "", 0
		for range 10 {
			last, n, err := s.PurgeMetadataKey(ctx, p, imports.PurgeVouchers, "color", after, 2)
			must(t, err)
			if n == 0 {
				break
			}
			after, done = last, done+n
		}
		if done != 5 {
			t.Errorf("purged %d, want 5", done)
		}
		if n, _ := s.CountMetadataKey(ctx, p, imports.PurgeVouchers, "color"); n != 0 {
			t.Errorf("after the purge %d vouchers hold the key", n)
		}
		for i := range 5 {
			if i == 1 {
				continue // in the bin
			}
			v, err := s.GetVoucher(ctx, p, fmt.Sprintf("v_b1_%04d", i))
			must(t, err)
			diff(t, v.ID, promotype.Metadata{"keep": "x"}, v.Metadata)
		}
	})
}
