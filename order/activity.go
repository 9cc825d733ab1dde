package order

import (
	"context"
	"strings"

	"github.com/promoengine/promo/promotype"
)

// LogActivity enters a change of order o (normalized, just written) in
// its customer's activity log through st, the change's transaction:
// customer.order.created for a new order (was is ""), else
// customer.order.updated; and customer.order.paid, .canceled or
// .fulfilled when the status became one of those. Data is {order}. An
// order without a customer logs nothing; no webhook hears of these.
func LogActivity(ctx context.Context, st promotype.EventStore, env promotype.Env, o *Order, was Status) error {
	if o.CustomerID == nil {
		return nil
	}
	types := []string{"customer.order.updated"}
	if was == "" {
		types[0] = "customer.order.created"
	}
	if o.Status != was && o.Status != StatusCreated {
		types = append(types, "customer.order."+strings.ToLower(string(o.Status)))
	}
	events := make([]*promotype.Event, len(types))
	for i, typ := range types {
		ev, err := promotype.NewActivity(env, o.ProjectID, *o.CustomerID, typ, o.ID, map[string]any{"order": o})
		if err != nil {
			return err
		}
		events[i] = ev
	}
	return st.AppendEvents(ctx, events...)
}
