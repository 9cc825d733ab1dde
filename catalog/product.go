package catalog

import (
	"slices"

	"github.com/promoengine/promo/promotype"
)

// Shipping is the built-in product that free-shipping discounts refer to.
// Every project has it from creation; it cannot be deleted.
const (
	ShippingID       = "prod_5h1pp1ng"
	ShippingSourceID = "5h1pp1ng"
	ShippingName     = "Shipping"
)

// Product is an item of the client's inventory (object "product").
type Product struct {
	ID         string                `json:"id"`
	SourceID   *string               `json:"source_id"`
	Name       *string               `json:"name"`
	Price      *int64                `json:"price"`
	Attributes []string              `json:"attributes"`
	Metadata   promotype.Metadata    `json:"metadata"`
	ImageURL   *string               `json:"image_url"`
	CreatedAt  promotype.Time        `json:"created_at"`
	UpdatedAt  *promotype.Time       `json:"updated_at"`
	Object     string                `json:"object"`
	SKUs       *promotype.List[*SKU] `json:"skus,omitempty"` // filled by Get only

	ProjectID string          `json:"-"`
	BinnedAt  *promotype.Time `json:"-"` // set while the product is in the bin
}

// Clone returns a deep copy.
func (p *Product) Clone() *Product {
	c := *p
	c.SourceID = promotype.ClonePtr(p.SourceID)
	c.Name = promotype.ClonePtr(p.Name)
	c.Price = promotype.ClonePtr(p.Price)
	c.ImageURL = promotype.ClonePtr(p.ImageURL)
	c.UpdatedAt = promotype.ClonePtr(p.UpdatedAt)
	c.BinnedAt = promotype.ClonePtr(p.BinnedAt)
	c.Attributes = slices.Clone(p.Attributes)
	c.Metadata = p.Metadata.Clone()
	c.SKUs = nil
	return &c
}

// HasAttribute reports whether name is one of the product's SKU attribute names.
func (p *Product) HasAttribute(name string) bool {
	for _, a := range p.Attributes {
		if a == name {
			return true
		}
	}
	return false
}

func (p *Product) normalize() *Product {
	p.Object = "product"
	if p.Metadata == nil {
		p.Metadata = promotype.Metadata{}
	}
	if p.Attributes == nil {
		p.Attributes = []string{}
	}
	return p
}
