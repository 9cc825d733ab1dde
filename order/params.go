package order

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"unicode/utf8"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// Params is the body of an order create (POST /v1/orders, an upsert by id or
// source_id) or update (PUT /v1/orders/{orderId}), and the `order` of a
// promotion validation. Absent fields are left unchanged on update.
//
// Items given replace the order's items and are joined to the catalog
// again; amount, when absent, is then their sum. Metadata given replaces
// the stored metadata. SourceID, CustomerID and ReferrerID distinguish
// "absent" from null: null clears them.
type Params struct {
	ID             *string            `json:"id"`
	SourceID       Nullable[string]   `json:"source_id"`
	Status         *Status            `json:"status"`
	Amount         *int64             `json:"amount"`
	InitialAmount  *int64             `json:"initial_amount"`
	DiscountAmount *int64             `json:"discount_amount"`
	Items          []ItemParams       `json:"items"`
	Metadata       promotype.Metadata `json:"metadata"`
	CreatedAt      *promotype.Time    `json:"created_at"`
	// Customer names the customer (upserted by id or source_id, see
	// customer.Upsert); CustomerID names an existing one by id or source
	// id, or with null removes it. Customer wins when both are given.
	Customer   *customer.Params `json:"customer"`
	CustomerID Nullable[string] `json:"customer_id"`
	// Referrer and ReferrerID are the same for the referrer.
	Referrer   *customer.Params `json:"referrer"`
	ReferrerID Nullable[string] `json:"referrer_id"`
}

// ItemParams is one requested order item. A line is joined to the catalog
// by SKUID, else ProductID, else SourceID with RelatedObject ("product", the
// default, or "sku"); a line naming none of them is a free-form line. Price,
// when absent, comes from the catalog (the SKU's price beats the product's);
// Amount, when absent, is price × quantity. Product and SKU override the
// catalog data shown in the line (name, price, metadata) for this order only.
type ItemParams struct {
	ProductID      *string            `json:"product_id"`
	SKUID          *string            `json:"sku_id"`
	SourceID       *string            `json:"source_id"`
	RelatedObject  *string            `json:"related_object"`
	Quantity       *Quantity          `json:"quantity"` // default 1
	Price          *int64             `json:"price"`
	Amount         *int64             `json:"amount"`
	DiscountAmount *int64             `json:"discount_amount"`
	Product        *ItemProductParams `json:"product"`
	SKU            *ItemSKUParams     `json:"sku"`
	Metadata       promotype.Metadata `json:"metadata"`
}

// PricedItem is a free-form line: quantity units at price each (in the
// smallest currency unit), joined to no catalog product.
func PricedItem(price, quantity int64) ItemParams {
	return ItemParams{Price: &price, Quantity: Qty(quantity)}
}

// ProductItem is a line of quantity units of the catalog product with id
// productID, priced from the catalog.
func ProductItem(productID string, quantity int64) ItemParams {
	return ItemParams{ProductID: &productID, Quantity: Qty(quantity)}
}

// ItemProductParams overrides the product data of one line.
type ItemProductParams struct {
	Name     *string            `json:"name"`
	Price    *int64             `json:"price"`
	Metadata promotype.Metadata `json:"metadata"`
	Override *bool              `json:"override"`
}

// ItemSKUParams overrides the SKU data of one line.
type ItemSKUParams struct {
	SKU      *string            `json:"sku"`
	Price    *int64             `json:"price"`
	Metadata promotype.Metadata `json:"metadata"`
	Override *bool              `json:"override"`
}

// Related objects of an item's source_id.
const (
	RelatedProduct = "product"
	RelatedSKU     = "sku"
)

// Quantity is an item count. In JSON it is an integer or, as the hosted service's
// documented requests show ("quantity": "1"), a string holding one. Any other value is
// kept as invalid and reported by validation with the item's index
// ("Property .items[2].quantity must be integer").
type Quantity struct {
	n       int64
	invalid bool
}

// Qty returns the quantity n.
func Qty(n int64) *Quantity { return &Quantity{n: n} }

// Value is the count.
func (q Quantity) Value() int64 { return q.n }

// MarshalJSON writes the count as a number.
func (q Quantity) MarshalJSON() ([]byte, error) { return strconv.AppendInt(nil, q.n, 10), nil }

// UnmarshalJSON reads an integer or a string holding one. It never fails:
// a bad value makes the quantity invalid (see Params.Validate).
func (q *Quantity) UnmarshalJSON(b []byte) error {
	*q = Quantity{}
	s := b
	if len(b) >= 2 && b[0] == '"' {
		if bytes.IndexByte(b, '\\') < 0 {
			s = b[1 : len(b)-1]
		} else {
			var str string
			if json.Unmarshal(b, &str) != nil {
				q.invalid = true
				return nil
			}
			s = []byte(str)
		}
	}
	n, err := strconv.ParseInt(string(s), 10, 64)
	if err != nil {
		q.invalid = true
		return nil
	}
	q.n = n
	return nil
}

// Nullable is an optional body field that may also be null: Set reports
// whether it was given; Value is nil when it was given as null.
type Nullable[T any] struct {
	Set   bool
	Value *T
}

// Some returns a field given with v.
func Some[T any](v T) Nullable[T] { return Nullable[T]{Set: true, Value: &v} }

// Null returns a field given as null.
func Null[T any]() Nullable[T] { return Nullable[T]{Set: true} }

// UnmarshalJSON records that the field was given, as a value or null.
func (n *Nullable[T]) UnmarshalJSON(b []byte) error {
	n.Set = true
	n.Value = nil
	if string(b) == "null" {
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		if te, ok := err.(*json.UnmarshalTypeError); ok {
			// Let encoding/json name the property: the field is added by the caller's decoder.
			return &json.UnmarshalTypeError{Value: te.Value, Type: reflect.TypeFor[T]()}
		}
		return err
	}
	n.Value = &v
	return nil
}

// MarshalJSON writes the value or null.
func (n Nullable[T]) MarshalJSON() ([]byte, error) {
	if n.Value == nil {
		return []byte("null"), nil
	}
	return json.Marshal(*n.Value)
}

// Validate checks the body: types and ranges the decoder cannot check, with
// the failing property's path in the details. It does not read the catalog
// or the store.
func (in *Params) Validate() error {
	if err := in.validateCalc(); err != nil {
		return err
	}
	if v := in.SourceID.Value; v != nil {
		if n := utf8.RuneCountInString(*v); n < 1 || n > 200 {
			return promotype.InvalidPayload("Property .source_id must have between 1 and 200 characters")
		}
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"customer_id", in.CustomerID.Value}, {"referrer_id", in.ReferrerID.Value}} {
		if f.v != nil && *f.v == "" {
			return promotype.InvalidPayload("Property .%s must NOT have fewer than 1 characters", f.name)
		}
	}
	if in.Customer != nil {
		if err := in.Customer.Validate(".customer"); err != nil {
			return err
		}
	}
	if in.Referrer != nil {
		if err := in.Referrer.Validate(".referrer"); err != nil {
			return err
		}
	}
	return nil
}

// validateCalc checks what the calculation reads: status, amounts, items.
func (in *Params) validateCalc() error {
	if len(in.Items) > MaxItems {
		return promotype.InvalidPayload("Property .items must NOT have more than %d items", MaxItems)
	}
	if in.Status != nil && !in.Status.Valid() {
		return promotype.InvalidPayload("Property .status must be equal to one of the allowed values: CREATED, PAID, CANCELED, FULFILLED")
	}
	for _, f := range []struct {
		name string
		v    *int64
	}{{"amount", in.Amount}, {"initial_amount", in.InitialAmount}, {"discount_amount", in.DiscountAmount}} {
		if err := checkAmount(-1, "", f.name, f.v); err != nil {
			return err
		}
	}
	for i := range in.Items {
		if err := in.Items[i].validate(i); err != nil {
			return err
		}
	}
	return nil
}

func (it *ItemParams) validate(i int) error {
	p := func(field string) string { return ".items[" + strconv.Itoa(i) + "]." + field }
	for _, f := range []struct {
		name string
		v    *string
	}{{"product_id", it.ProductID}, {"sku_id", it.SKUID}, {"source_id", it.SourceID}} {
		if f.v != nil && *f.v == "" {
			return promotype.InvalidPayload("Property %s must NOT have fewer than 1 characters", p(f.name))
		}
	}
	if r := it.RelatedObject; r != nil && *r != RelatedProduct && *r != RelatedSKU {
		return promotype.InvalidPayload("Property %s must be equal to one of the allowed values: product, sku", p("related_object"))
	}
	if q := it.Quantity; q != nil {
		switch {
		case q.invalid:
			return promotype.InvalidPayload("Property %s must be integer", p("quantity"))
		case q.n < 1:
			return promotype.InvalidPayload("Property %s must be >= 1", p("quantity"))
		case q.n > MaxAmount:
			return promotype.InvalidPayload("Property %s must be <= %d", p("quantity"), MaxAmount)
		}
	}
	for _, f := range []struct {
		name string
		v    *int64
	}{{"price", it.Price}, {"amount", it.Amount}, {"discount_amount", it.DiscountAmount}} {
		if err := checkAmount(i, "", f.name, f.v); err != nil {
			return err
		}
	}
	if it.Product != nil {
		if err := checkAmount(i, ".product", "price", it.Product.Price); err != nil {
			return err
		}
		if it.Product.Name != nil && utf8.RuneCountInString(*it.Product.Name) > 300 {
			return promotype.InvalidPayload("Property %s must NOT have more than 300 characters", p("product.name"))
		}
	}
	if it.SKU != nil {
		if err := checkAmount(i, ".sku", "price", it.SKU.Price); err != nil {
			return err
		}
		if it.SKU.SKU != nil && utf8.RuneCountInString(*it.SKU.SKU) > 300 {
			return promotype.InvalidPayload("Property %s must NOT have more than 300 characters", p("sku.sku"))
		}
	}
	return nil
}

// checkAmount checks a money field: 0 ≤ v ≤ MaxAmount. Its path is
// .items[item]<sub>.<name>, or .<name> for item -1; it is built only for an
// error, so checking 500 valid items allocates nothing.
func checkAmount(item int, sub, name string, v *int64) error {
	if v == nil || (*v >= 0 && *v <= MaxAmount) {
		return nil
	}
	path := "." + name
	if item >= 0 {
		path = ".items[" + strconv.Itoa(item) + "]" + sub + path
	}
	if *v < 0 {
		return promotype.InvalidPayload("Property %s must be >= 0", path)
	}
	return promotype.InvalidPayload("Property %s must be <= %d", path, MaxAmount)
}
