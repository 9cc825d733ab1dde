package order

import (
	"context"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// statusActivity is the activity of an order's status becoming one.
var statusActivity = map[Status]string{
	StatusPaid: customer.ActivityOrderPaid, StatusCanceled: customer.ActivityOrderCanceled, StatusFulfilled: customer.ActivityOrderFulfilled,
}

// LogActivity enters a change of order o (normalized, just written) in
// its customer's activity log through st, the change's transaction:
// customer.order.created for a new order (was is ""), else
// customer.order.updated; and customer.order.paid, .canceled or
// .fulfilled when the status became one of those. Data is {order}. An
// order without a customer logs nothing; no webhook hears of these. An
// order that became PAID is then told to env.Trigger (loyalty earning),
// in the same transaction.
func LogActivity(ctx context.Context, st promotype.EventStore, env promotype.Env, o *Order, was Status) error {
	if o.CustomerID == nil {
		return nil
	}
	types := []string{customer.ActivityOrderUpdated}
	if was == "" {
		types[0] = customer.ActivityOrderCreated
	}
	if t := statusActivity[o.Status]; t != "" && o.Status != was {
		types = append(types, t)
	}
	first, err := promotype.NewActivity(env, o.ProjectID, *o.CustomerID, types[0], o.ID, orderData{o})
	if err != nil {
		return err
	}
	events := []*promotype.Event{first}
	for _, typ := range types[1:] { // the same data, encoded once
		ev := *first
		ev.ID = env.OutboxID(promotype.PrefixEvent)
		events = append(events, ev.For(*o.CustomerID, typ))
	}
	if err := st.AppendEvents(ctx, events...); err != nil {
		return err
	}
	if len(events) > 1 && o.Status == StatusPaid {
		return env.Trigger(ctx, st, promotype.Trigger{Event: events[len(events)-1]})
	}
	return nil
}

// orderData is the data of an order activity: {"order": …}.
type orderData struct {
	Order *Order `json:"order"`
}
