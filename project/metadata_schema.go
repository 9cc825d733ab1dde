package project

import (
	"github.com/promoengine/promo/promotype"
)

// StandardObjects are the metadata schemas every project may define for its
// built-in resources; any other related_object names a custom nested-object
// schema.
var StandardObjects = []string{
	"campaign", "customer", "earning_rule", "loyalty_tier", "order", "order_item",
	"product", "promotion_tier", "publication", "redemption", "reward", "voucher",
}

// Definition types.
const (
	TypeString   = "string"
	TypeNumber   = "number"
	TypeObject   = "object"
	TypeDate     = "date"
	TypeDatetime = "datetime"
	TypeGeopoint = "geopoint"
	TypeBoolean  = "boolean"
	TypeImageURL = "image_url"
)

// MetadataSchema constrains the metadata of one kind of resource (object
// "metadata_schema").
type MetadataSchema struct {
	ID               string                `json:"id"`
	RelatedObject    string                `json:"related_object"`
	Properties       map[string]Definition `json:"properties"`
	AllowDefinedOnly bool                  `json:"allow_defined_only"`
	// RemovedProperties are the definitions an update marked deleted:true
	// (the hosted service's "removed definitions"): no longer enforced, kept
	// until the schema is deleted. An extension field, absent when empty.
	RemovedProperties map[string]Definition `json:"removed_properties,omitempty"`
	CreatedAt         promotype.Time        `json:"created_at"`
	UpdatedAt         *promotype.Time       `json:"updated_at"`
	Object            string                `json:"object"`
	ProjectID         string                `json:"-"`
}

// Definition is the rule for one metadata key.
type Definition struct {
	Type        string              `json:"type" validate:"required,oneof=string number object date datetime geopoint boolean image_url"`
	Optional    bool                `json:"optional"`
	Array       bool                `json:"array"`
	Deleted     bool                `json:"deleted,omitempty"`
	ObjectType  *string             `json:"object_type"`
	MinLength   *int                `json:"min_length,omitempty" validate:"omitempty,gte=0"`
	MaxLength   *int                `json:"max_length,omitempty" validate:"omitempty,gte=0"`
	ExactLength *int                `json:"exact_length,omitempty" validate:"omitempty,gte=0"`
	Eq          []any               `json:"eq,omitempty"`
	Ne          []promotype.Decimal `json:"ne,omitempty"`
	Lt          *promotype.Decimal  `json:"lt,omitempty"`
	Lte         *promotype.Decimal  `json:"lte,omitempty"`
	Gt          *promotype.Decimal  `json:"gt,omitempty"`
	Gte         *promotype.Decimal  `json:"gte,omitempty"`
}
