package rule

// target is what a rule reads.
type target uint8

const (
	tCustomerMeta target = iota + 1
	tOrderMeta
	tRedemptionMeta
	tOrderAmount
	tOrderInitialAmount
	tOrderTotalAmount
	tItemsCount
	tItemsPriceAny
	tItemsPriceEach
	tItemsMetaAny
	tItemsMetaEach
	tItemsAny
	tItemsEvery
	tItemsNone
	tItemsCheapest
	tItemsMostExpensive
	// Sub-rules of an item rule, read on the lines that matched.
	tSubQuantity
	tSubAggregatedQuantity
	tSubPrice
	tSubAggregatedAmount
	tSubMeta
	// A redemption-history counter (history.go).
	tHistory
	// The segments the customer is a member of (Input.Segments).
	tCustomerSegment
)

// valueKind is the type of the values a rule's conditions compare with.
type valueKind uint8

const (
	kindNumber  valueKind = iota + 1 // amounts, quantities, prices (integers in minor units)
	kindMeta                         // metadata: any JSON scalar, arrays
	kindItems                        // item references [{id, object, source_id}]
	kindSegment                      // segment ids
)

type nameSpec struct {
	target   target
	kind     valueKind
	property bool    // the rule must name a metadata key in `property`
	object   string  // for product.id / sku.id: the object every reference has
	counter  Counter // tHistory: the counter read
}

func (n nameSpec) isItems() bool { return n.kind == kindItems }

// isCustomer reports whether the rule reads the customer alone (what
// EvalAudience checks): its metadata or its segments.
func (n nameSpec) isCustomer() bool { return n.target == tCustomerMeta || n.target == tCustomerSegment }

// names are the top-level rule names the engine evaluates.
var names = map[string]nameSpec{
	"customer.metadata":          {target: tCustomerMeta, kind: kindMeta, property: true},
	"customer.segment":           {target: tCustomerSegment, kind: kindSegment},
	"order.metadata":             {target: tOrderMeta, kind: kindMeta, property: true},
	"redemption.metadata":        {target: tRedemptionMeta, kind: kindMeta, property: true},
	"order.amount":               {target: tOrderAmount, kind: kindNumber},
	"order.initial_amount":       {target: tOrderInitialAmount, kind: kindNumber},
	"order.total_amount":         {target: tOrderTotalAmount, kind: kindNumber},
	"order.items.count":          {target: tItemsCount, kind: kindNumber},
	"order.items.price_any":      {target: tItemsPriceAny, kind: kindNumber},
	"order.items.price_each":     {target: tItemsPriceEach, kind: kindNumber},
	"order.items.metadata_any":   {target: tItemsMetaAny, kind: kindMeta, property: true},
	"order.items.metadata_each":  {target: tItemsMetaEach, kind: kindMeta, property: true},
	"order.items.any":            {target: tItemsAny, kind: kindItems},
	"order.items.every":          {target: tItemsEvery, kind: kindItems},
	"order.items.none":           {target: tItemsNone, kind: kindItems},
	"order.items.cheapest":       {target: tItemsCheapest, kind: kindItems},
	"order.items.most_expensive": {target: tItemsMostExpensive, kind: kindItems},
	"product.id":                 {target: tItemsAny, kind: kindItems, object: "product"},
	"sku.id":                     {target: tItemsAny, kind: kindItems, object: "sku"},
}

func init() {
	for name, c := range historyNames {
		names[name] = nameSpec{target: tHistory, kind: kindNumber, counter: c}
	}
}

// subNames are the names allowed inside an item rule's `rules`.
var subNames = map[string]nameSpec{
	"order.items.quantity":            {target: tSubQuantity, kind: kindNumber},
	"product.quantity":                {target: tSubQuantity, kind: kindNumber},
	"sku.quantity":                    {target: tSubQuantity, kind: kindNumber},
	"order.items.aggregated_quantity": {target: tSubAggregatedQuantity, kind: kindNumber},
	"order.items.price":               {target: tSubPrice, kind: kindNumber},
	"product.price":                   {target: tSubPrice, kind: kindNumber},
	"sku.price":                       {target: tSubPrice, kind: kindNumber},
	"order.items.aggregated_amount":   {target: tSubAggregatedAmount, kind: kindNumber},
	"order.items.metadata":            {target: tSubMeta, kind: kindMeta, property: true},
	"product.metadata":                {target: tSubMeta, kind: kindMeta, property: true},
}

// notYet are documented rule names the engine cannot evaluate yet: they need
// per-key or per-user redemption history, API keys, publications,
// custom events or collections (the campaign and redemption counters are
// evaluated: history.go). They are refused when saved, never guessed.
var notYet = map[string]string{
	"redemption.gift.amount":                        "gift redemptions",
	"redemption.api_key":                            "API key context",
	"redemption.count.per_api_key":                  "redemption history",
	"redemption.user.login":                         "dashboard users",
	"redemption.count.per_user":                     "redemption history",
	"redemption.reward.pay_with_points.points_used": "loyalty rewards",
	"publication.redeemable_by_linked_customer":     "publications",
	"custom_event.metadata":                         "custom event context",
	"product.discount_applicable":                   "discount applicability",
	"sku.discount_applicable":                       "discount applicability",
	"product.metadata.aggregated_quantity":          "product metadata aggregates",
	"product.metadata.aggregated_amount":            "product metadata aggregates",
	"product.metadata.discount_applicable":          "discount applicability",
	"product.metadata.match_all":                    "product metadata aggregates",
}
