package discount

import "github.com/promoengine/promo/order"

// Catalog returns the line a unit discount adds for unitType (a product or
// SKU id): an order item with its product and SKU data and price, quantity 0.
type Catalog func(unitType string) (order.Item, bool)

// keys are the identities of a line that applicable_to entries and unit
// types match.
type keys struct{ product, productSource, sku, skuSource string }

func keysOf(it *order.Item) keys {
	k := keys{product: it.ProductID, sku: it.SKUID}
	if it.Product != nil && it.Product.SourceID != nil {
		k.productSource = *it.Product.SourceID
	}
	if it.SKU != nil && it.SKU.SourceID != nil {
		k.skuSource = *it.SKU.SourceID
	}
	return k
}

func price(it *order.Item) int64 {
	if it.Price == nil {
		return 0
	}
	return *it.Price
}
