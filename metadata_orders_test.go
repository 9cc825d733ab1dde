package promo_test

import (
	"testing"

	"github.com/promoengine/promo/order"
)

// Order creates check the metadata of their items against the order_item
// schema and of an embedded customer against the customer schema; a
// refused create stores neither the order nor the customer.
func TestOrderEmbeddedMetadataSchemas(t *testing.T) {
	eachStore(t, func(t *testing.T, f fixture) {
		schema(t, f, "order_item", "size", true)
		schema(t, f, "customer", "segment", true)
		for _, tc := range []struct{ body, details string }{
			{`{"source_id":"o1","items":[{"price":100,"metadata":{"size":"a"}},{"price":200,"metadata":{"size":"x"}}]}`,
				"size: must be a string, must be equal to one of a,b (actual value is 'x')"},
			{`{"source_id":"o1","customer":{"source_id":"alice","metadata":{"segment":2}},"items":[{"price":100}]}`,
				"segment: must be a string (actual value is '2')"},
			{`{"source_id":"o1","referrer":{"source_id":"bob","metadata":{"segment":"z"}},"items":[{"price":100}]}`,
				"segment: must be a string, must be equal to one of a,b (actual value is 'z')"},
		} {
			_, err := f.eng.Orders().Create(ctx, f.project, decode[order.Params](t, tc.body))
			wantMetaErr(t, err, tc.details)
		}
		_, err := f.eng.Orders().Get(ctx, f.project, "o1")
		wantErr(t, err, 404, "not_found")
		_, err = f.eng.Customers().Get(ctx, f.project, "alice")
		wantErr(t, err, 404, "not_found")
		o := must[*order.Order](t)(f.eng.Orders().Create(ctx, f.project, decode[order.Params](t,
			`{"source_id":"o1","customer":{"source_id":"alice","metadata":{"segment":"a"}},"items":[{"price":100,"metadata":{"size":"b"}}]}`)))
		if o.CustomerID == nil || o.Items[0].Metadata["size"] != "b" {
			t.Errorf("order = %+v", o)
		}
	})
}
