package catalog

// Collections is a project's product collections compiled for evaluation
// (the promotion snapshot holds one): STATIC membership is two map
// lookups, AUTO_UPDATE membership the compiled filter over the line's
// product and SKU data, which orders read from the catalog at request
// time, so a product change is seen at once. Immutable and safe for
// concurrent use; a nil *Collections holds nothing.
type Collections struct {
	byID map[string]*compiledCollection
	ids  []string // in the order compiled
}

type compiledCollection struct {
	products, skus map[string]bool // STATIC
	filter         *filterProgram  // AUTO_UPDATE
}

// CompileCollections compiles cs. A stored filter that no longer compiles
// (it was checked at create) holds nothing.
func CompileCollections(cs []*Collection) *Collections {
	out := &Collections{byID: make(map[string]*compiledCollection, len(cs))}
	for _, c := range cs {
		cc := &compiledCollection{}
		if c.Type == CollectionAutoUpdate {
			p, err := c.Filter.compile()
			if err != nil {
				continue
			}
			cc.filter = p
		} else {
			cc.products, cc.skus = map[string]bool{}, map[string]bool{}
			for _, it := range c.Products {
				if it.Object == "sku" {
					cc.skus[it.ID] = true
				} else {
					cc.products[it.ID] = true
				}
			}
		}
		out.byID[c.ID] = cc
		out.ids = append(out.ids, c.ID)
	}
	return out
}

// Len is the number of collections.
func (c *Collections) Len() int {
	if c == nil {
		return 0
	}
	return len(c.ids)
}

// Holds reports whether collection id holds a line of product (and sku,
// nil for a product line): the product or the SKU is a member. A product
// member holds the lines of its SKUs too. An unknown id holds nothing.
func (c *Collections) Holds(id string, product, sku *Facts) bool {
	if c == nil {
		return false
	}
	cc := c.byID[id]
	return cc != nil && cc.holds(product, sku)
}

// AppendMembership appends to dst the ids of the collections that hold
// the line of product and sku.
func (c *Collections) AppendMembership(dst []string, product, sku *Facts) []string {
	if c == nil {
		return dst
	}
	for _, id := range c.ids {
		if c.byID[id].holds(product, sku) {
			dst = append(dst, id)
		}
	}
	return dst
}

func (cc *compiledCollection) holds(product, sku *Facts) bool {
	if cc.filter != nil { // the built-in shipping product is in no filtered collection
		return (product != nil && product.ID != ShippingID && cc.filter.holds(product)) || (sku != nil && cc.filter.holds(sku))
	}
	return (product != nil && cc.products[product.ID]) || (sku != nil && cc.skus[sku.ID])
}
