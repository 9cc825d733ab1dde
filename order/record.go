package order

import (
	"context"

	"github.com/promoengine/promo/promotype"
)

// Record stores o, the calculated order of a redemption request in, through
// st (the caller's transaction). A new order (stored false) gets its id,
// creation time, source id, metadata, item ids and the customer the
// request names (upserted); a stored one keeps them. Either way its status
// is the request's, PAID by default, and updated_at is
// set on a stored one. o is changed and returned normalized; the change
// enters its customer's activity log (LogActivity).
func Record(ctx context.Context, st ServiceStore, env promotype.Env, projectID string, o *Order, in *Params, stored bool) (*Order, error) {
	o.ProjectID = projectID
	was := o.Status
	o.Status = StatusPaid
	if in.Status != nil {
		o.Status = *in.Status
	}
	if stored {
		o.UpdatedAt = env.Clock.Now().Ptr()
		if err := st.UpdateOrder(ctx, o); err != nil {
			return nil, err
		}
		o.normalize()
		return o, LogActivity(ctx, st, env, o, was)
	}
	o.ID, o.CreatedAt = env.IDs.NewID(promotype.PrefixOrder), env.Clock.Now()
	if in.CreatedAt != nil {
		o.CreatedAt = *in.CreatedAt
	}
	o.SourceID = promotype.ClonePtr(in.SourceID.Value)
	if in.Metadata != nil {
		o.Metadata = in.Metadata.Clone()
	}
	numberItems(o)
	svc := &Service{env: env}
	if err := svc.setCustomers(ctx, st, projectID, o, in); err != nil {
		return nil, err
	}
	if err := st.InsertOrder(ctx, o); err != nil {
		return nil, err
	}
	o.normalize()
	return o, LogActivity(ctx, st, env, o, "")
}

// Cancel is o after a rollback WITH_ORDER: CANCELED, every discount
// removed, so total_amount = amount.
func (o *Order) Cancel(at promotype.Time) {
	o.Status = StatusCanceled
	o.DiscountAmount, o.ItemsDiscountAmount, o.TotalDiscountAmount = 0, 0, 0
	o.AppliedDiscountAmount, o.ItemsAppliedDiscountAmount, o.TotalAppliedDiscountAmount = 0, 0, 0
	for i := range o.Items {
		it := &o.Items[i]
		it.DiscountAmount, it.AppliedDiscountAmount, it.DiscountQuantity, it.AppliedDiscountQuantity = 0, 0, 0, 0
		it.SubtotalAmount = it.Amount
	}
	o.TotalAmount = o.Amount
	o.UpdatedAt = &at
}

// Normalized is o with the fields every answer carries filled (object,
// empty collections).
func Normalized(o *Order) *Order { return o.normalize() }
