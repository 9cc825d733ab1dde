package catalog

import "github.com/promoengine/promo/promotype"

// ProductParams is the body of a product create (an upsert: an id or a
// source_id naming an existing product updates it) or update. Absent fields
// are left unchanged on update; metadata given replaces the stored metadata.
type ProductParams struct {
	ID         *string            `json:"id"`
	SourceID   *string            `json:"source_id" validate:"omitempty,min=1,max=200"`
	Name       *string            `json:"name" validate:"omitempty,max=300"`
	Price      *int64             `json:"price" validate:"omitempty,gte=0,lte=9007199254740991"` // ≤ order.MaxAmount
	Attributes []string           `json:"attributes" validate:"omitempty,max=100,dive,min=1,max=100"`
	Metadata   promotype.Metadata `json:"metadata"`
	ImageURL   *string            `json:"image_url" validate:"omitempty,imageurl"`
}

// SKUParams is the body of a SKU create (upsert by id or source_id) or update.
type SKUParams struct {
	ID         *string            `json:"id"`
	SourceID   *string            `json:"source_id" validate:"omitempty,min=1,max=200"`
	SKU        *string            `json:"sku" validate:"omitempty,max=300"`
	Price      *int64             `json:"price" validate:"omitempty,gte=0,lte=9007199254740991"` // ≤ order.MaxAmount
	Currency   *string            `json:"currency" validate:"omitempty,len=3,alpha"`
	Attributes promotype.Metadata `json:"attributes"`
	ImageURL   *string            `json:"image_url" validate:"omitempty,imageurl"`
	Metadata   promotype.Metadata `json:"metadata"`
}

func (in ProductParams) apply(p *Product) {
	if in.SourceID != nil {
		p.SourceID = promotype.ClonePtr(in.SourceID)
	}
	if in.Name != nil {
		p.Name = promotype.ClonePtr(in.Name)
	}
	if in.Price != nil {
		p.Price = promotype.ClonePtr(in.Price)
	}
	if in.Attributes != nil {
		p.Attributes = append([]string{}, in.Attributes...)
	}
	if in.Metadata != nil {
		p.Metadata = in.Metadata.Clone()
	}
	if in.ImageURL != nil {
		p.ImageURL = promotype.ClonePtr(in.ImageURL)
	}
}

func (in SKUParams) apply(s *SKU) {
	if in.SourceID != nil {
		s.SourceID = promotype.ClonePtr(in.SourceID)
	}
	if in.SKU != nil {
		s.SKU = promotype.ClonePtr(in.SKU)
	}
	if in.Price != nil {
		s.Price = promotype.ClonePtr(in.Price)
	}
	if in.Currency != nil {
		s.Currency = promotype.ClonePtr(in.Currency)
	}
	if in.Attributes != nil {
		s.Attributes = in.Attributes.Clone()
	}
	if in.ImageURL != nil {
		s.ImageURL = promotype.ClonePtr(in.ImageURL)
	}
	if in.Metadata != nil {
		s.Metadata = in.Metadata.Clone()
	}
}
