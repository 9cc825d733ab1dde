package rule

// Item is one order line as rules see it.
type Item struct {
	ProductID       string
	ProductSourceID string
	SKUID           string
	SKUSourceID     string
	Quantity        int64
	Price           int64 // unit price, minor units
	Amount          int64 // price × quantity
	Meta            Attrs // item metadata: line, then SKU, then product keys
	// Collections are the ids of the product collections that hold the
	// line (filled by the caller from the project's compiled collections).
	Collections []string
}

// Input is everything a rule can read of one validation request.
type Input struct {
	Customer   Attrs // customer.metadata
	Order      Attrs // order.metadata
	Redemption Attrs // redemption.metadata (the request's metadata)

	Amount        int64 // order.amount: the cart value before this incentive
	InitialAmount int64 // order.initial_amount: the original cart
	TotalAmount   int64 // order.total_amount: the value after this incentive
	Items         []Item

	// History holds the redemption-history counters the program reads
	// (Program.Counters), each with this redemption's own part included.
	History [NumCounters]int64

	// Segments are the ids of the segments the customer is a member of,
	// ascending (customer.segment); none without a stored customer.
	Segments []string
}

// Fact names: what a request holds, in the form an Index keys programs by.
const (
	factProduct       = "p\x00"
	factProductSource = "P\x00"
	factSKU           = "s\x00"
	factSKUSource     = "S\x00"
	factCollection    = "C\x00"
	factSegment       = "g\x00"
)

// scope prefixes of metadata facts.
const (
	scopeCustomer   = 'c'
	scopeOrder      = 'o'
	scopeRedemption = 'r'
)

func keyFact(scope byte, key string) string { return string(scope) + "\x00" + key }

func valueFact(scope byte, key, canon string) string {
	return string(scope) + "\x00" + key + "\x00" + canon
}

// Facts appends to dst every fact the input holds: each product and SKU of
// the cart (by id and source id), the collections holding its lines, the customer's segments, and each metadata key present and each
// scalar (or array element) value of it. Their number follows the request,
// not the rules.
func (in *Input) Facts(dst []string) []string {
	for i := range in.Items {
		it := &in.Items[i]
		if it.ProductID != "" {
			dst = append(dst, factProduct+it.ProductID)
		}
		if it.ProductSourceID != "" {
			dst = append(dst, factProductSource+it.ProductSourceID)
		}
		if it.SKUID != "" {
			dst = append(dst, factSKU+it.SKUID)
		}
		if it.SKUSourceID != "" {
			dst = append(dst, factSKUSource+it.SKUSourceID)
		}
		for _, id := range it.Collections {
			dst = append(dst, factCollection+id)
		}
	}
	for _, id := range in.Segments {
		dst = append(dst, factSegment+id)
	}
	dst = attrFacts(dst, scopeCustomer, in.Customer)
	dst = attrFacts(dst, scopeOrder, in.Order)
	return attrFacts(dst, scopeRedemption, in.Redemption)
}

func attrFacts(dst []string, scope byte, a Attrs) []string {
	for k, v := range a {
		dst = append(dst, keyFact(scope, k))
		if c, ok := v.canon(); ok {
			dst = append(dst, valueFact(scope, k, c))
		}
		for _, e := range v.Arr {
			if c, ok := e.canon(); ok {
				dst = append(dst, valueFact(scope, k, c))
			}
		}
	}
	return dst
}
