package order_test

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

// FuzzDecodeParams decodes any body as an order request, validates it and
// calculates it against the reference catalog: no panic, every refusal a
// 400 or 404 *promotype.Error, and every calculated order within the
// invariants.
func FuzzDecodeParams(f *testing.F) {
	for _, s := range []string{refCartRequest, `{}`, `{"items":[]}`, `{"items":[{"quantity":"abc"}]}`,
		`{"items":[{"quantity":"\u0031"}]}`, `{"items":[{"quantity":1e3}]}`, `{"items":[{"price":9007199254740991,"quantity":"9007199254740991"}]}`,
		`{"amount":1,"discount_amount":2}`, `{"items":[{"source_id":"ComicBook_1","related_object":"sku","sku":{"price":-1}}]}`,
		`{"items":[{"sku_id":"sku_0b7d7dfb090be5c619","product_id":"prod_5h1pp1ng"}]}`, `{"source_id":null,"customer_id":5}`,
		`{"customer":{"source_id":"","birthdate":"2020-02-30"}}`, `{"status":"PAID","items":[{"product":{"override":true,"metadata":null}}]}`,
		`{"items":[{"amount":1,"discount_amount":1,"quantity":"-0"}]}`, `[]`, `null`, `{"items":{}}`} {
		f.Add([]byte(s))
	}
	cat := refCatalog()
	f.Fuzz(func(t *testing.T, body []byte) {
		var in order.Params
		if json.Unmarshal(body, &in) != nil {
			return
		}
		verr := in.Validate()
		o, err := order.Calculate(&in, cat)
		if err != nil {
			var e *promotype.Error
			if !errors.As(err, &e) || (e.Code != 400 && e.Code != 404) {
				t.Fatalf("Calculate(%s): %v", body, err)
			}
			return
		}
		if verr != nil && in.Customer == nil && in.Referrer == nil && !in.SourceID.Set && !in.CustomerID.Set && !in.ReferrerID.Set {
			t.Fatalf("Validate refused what Calculate accepted: %v", verr)
		}
		if err := invariants(o); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if _, err := json.Marshal(o); err != nil {
			t.Fatalf("encode: %v", err)
		}
	})
}

// FuzzCalculate builds a random catalog and request from the fuzzer's seed,
// calculates the order, then applies the discount operations the fuzzer's
// bytes choose: the invariants must hold after each.
func FuzzCalculate(f *testing.F) {
	f.Add(uint64(1), []byte{0, 1, 2, 3, 4, 5, 6, 7})
	f.Add(uint64(42), []byte{4, 4, 4, 6, 6, 7, 1})
	f.Add(uint64(7), []byte{})
	f.Fuzz(func(t *testing.T, seed uint64, ops []byte) {
		r := rand.New(rand.NewPCG(seed, uint64(len(ops))))
		prods, skus := randomCatalog(r)
		in := randomRequest(r, prods, skus)
		o, err := order.Calculate(in, order.NewCatalog(prods, skus))
		if err != nil {
			if e := promotype.AsError(err); e.Code != 400 {
				t.Fatal(err)
			}
			return
		}
		if err := invariants(o); err != nil {
			t.Fatal(err)
		}
		for i, op := range ops {
			applyRandomDiscount(rand.New(rand.NewPCG(seed, uint64(op)<<8|uint64(i))), o, true)
			if err := invariants(o); err != nil {
				t.Fatalf("op %d: %v", i, err)
			}
		}
	})
}
