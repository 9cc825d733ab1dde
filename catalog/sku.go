package catalog

import "github.com/promoengine/promo/promotype"

// SKU is a stock-keeping unit of a product (object "sku").
type SKU struct {
	ID         string             `json:"id"`
	SourceID   *string            `json:"source_id"`
	ProductID  string             `json:"product_id"`
	SKU        *string            `json:"sku"`
	Price      *int64             `json:"price"`
	Currency   *string            `json:"currency"`
	Attributes promotype.Metadata `json:"attributes"`
	ImageURL   *string            `json:"image_url"`
	Metadata   promotype.Metadata `json:"metadata"`
	CreatedAt  promotype.Time     `json:"created_at"`
	UpdatedAt  *promotype.Time    `json:"updated_at"`
	Object     string             `json:"object"`

	ProjectID string          `json:"-"`
	BinnedAt  *promotype.Time `json:"-"`
}

// Clone returns a deep copy.
func (s *SKU) Clone() *SKU {
	c := *s
	c.SourceID = promotype.ClonePtr(s.SourceID)
	c.SKU = promotype.ClonePtr(s.SKU)
	c.Price = promotype.ClonePtr(s.Price)
	c.Currency = promotype.ClonePtr(s.Currency)
	c.ImageURL = promotype.ClonePtr(s.ImageURL)
	c.UpdatedAt = promotype.ClonePtr(s.UpdatedAt)
	c.BinnedAt = promotype.ClonePtr(s.BinnedAt)
	c.Attributes = s.Attributes.Clone()
	c.Metadata = s.Metadata.Clone()
	return &c
}

func (s *SKU) normalize() *SKU {
	s.Object = "sku"
	if s.Metadata == nil {
		s.Metadata = promotype.Metadata{}
	}
	if s.Attributes == nil {
		s.Attributes = promotype.Metadata{}
	}
	return s
}
