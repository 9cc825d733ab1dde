package order_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

// encode is what the HTTP adapter writes for v: JSON without HTML escaping.
func encode(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// TestWorkspaceViews prices random redeemables (random discount steps, some
// adding lines) in a Workspace over random orders and checks that each View
// is exactly the order the steps made — as an *Order and byte for byte as
// JSON — and that the working order is back to the base after each.
func TestWorkspaceViews(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(20261122, 6))
	for n := range 600 {
		prods, skus := randomCatalog(r)
		cat := order.NewCatalog(prods, skus)
		in := randomRequest(r, prods, skus)
		base, err := order.Calculate(in, cat)
		if err != nil {
			continue
		}
		if r.IntN(2) == 0 { // what a stored order adds
			base.ID, base.Status, base.CreatedAt = "ord_1", order.StatusPaid, promotype.NewTime(time.UnixMilli(1700000000123))
			base.Metadata = promotype.Metadata{"channel": "<web & app>", "n": float64(n)}
			base.SourceID, base.CustomerID = promotype.Ptr(`ord "src"`), promotype.Ptr("cust_1")
			base.Customer = customer.NewRef(base.CustomerID)
			base.Redemptions = map[string]order.Redemption{}
		}
		baseJSON := encode(t, base)
		extra, err := order.Calculate(randomRequest(r, prods, skus), cat)
		if err != nil || len(extra.Items) == 0 {
			continue
		}
		ws := order.NewWorkspace(base, 4)
		var views []order.View
		var wants []*order.Order
		for range 4 {
			o := ws.Order()
			for range 1 + r.IntN(4) {
				if r.IntN(10) == 0 {
					_, _ = o.AddItem(extra.Items[r.IntN(len(extra.Items))])
				}
				applyRandomDiscount(r, o, false) // one redeemable: no reset
			}
			want := o.Clone()
			want.Customer, want.Referrer = customer.NewRef(want.CustomerID), customer.NewRef(want.ReferrerID)
			views, wants = append(views, ws.View()), append(wants, want)
			if got := encode(t, ws.Order()); !bytes.Equal(got, baseJSON) {
				t.Fatalf("case %d: working order not reset:\n%s\nwant\n%s", n, got, baseJSON)
			}
		}
		ws.Close()
		if got := encode(t, base); !bytes.Equal(got, baseJSON) {
			t.Fatalf("case %d: base order changed", n)
		}
		for i, v := range views { // every view stays right after later ones
			if diff := cmp.Diff(wants[i], v.Order()); diff != "" {
				t.Fatalf("case %d view %d (-want +got):\n%s", n, i, diff)
			}
			if got, want := encode(t, v), encode(t, wants[i]); !bytes.Equal(got, want) {
				t.Fatalf("case %d view %d JSON:\n%s\nwant\n%s", n, i, got, want)
			}
			if v.Amounts() != wants[i].Amounts() {
				t.Fatalf("case %d view %d amounts %+v, want %+v", n, i, v.Amounts(), wants[i].Amounts())
			}
		}
	}
}

func TestZeroViewIsNull(t *testing.T) {
	t.Parallel()
	var v order.View
	if got := string(encode(t, v)); got != "null" {
		t.Errorf("zero View encodes as %s, want null", got)
	}
	if v.Order() != nil {
		t.Error("zero View has an order")
	}
}
