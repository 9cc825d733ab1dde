package order

import "github.com/promoengine/promo/promotype"

// Field returns a filterable or orderable field of o (the order list's and
// the order export's: id, source_id, status, customer_id, referrer_id,
// created_at, updated_at); stores filtering in memory read it.
func (o *Order) Field(name string) promotype.Value {
	switch name {
	case "id":
		return promotype.Value{Str: o.ID}
	case "source_id":
		return promotype.StringValue(o.SourceID)
	case "status":
		return promotype.Value{Str: string(o.Status)}
	case "customer_id":
		return promotype.StringValue(o.CustomerID)
	case "referrer_id":
		return promotype.StringValue(o.ReferrerID)
	case "created_at":
		return promotype.Value{Time: o.CreatedAt}
	case "updated_at":
		return promotype.TimeValue(o.UpdatedAt)
	}
	return promotype.Value{Null: true}
}
