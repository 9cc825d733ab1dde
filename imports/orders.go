package imports

import (
	"context"
	"encoding/json"

	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/promotype"
)

// MaxOrders bounds the orders of one import (the hosted limit).
const MaxOrders = 2000

// OrdersImport imports historical orders (ORDERS.IMPORT).
type OrdersImport struct {
	Rows int `json:"rows"`
}

// Kind implements async.Args.
func (OrdersImport) Kind() string    { return ActionOrdersImport }
func (a OrdersImport) rowCount() int { return a.Rows }

// ImportOrders imports orders (POST /v1/orders/import, at most MaxOrders)
// with an ORDERS.IMPORT action: each is the order create of POST
// /v1/orders (a source id naming a stored order updates it), applied on
// its own; orders that fail are listed in the result.
func (s *Service) ImportOrders(ctx context.Context, projectID string, items []order.Params) (*async.Ref, error) {
	if len(items) > MaxOrders {
		return nil, promotype.InvalidPayload("Payload must NOT have more than %d items", MaxOrders)
	}
	in, err := Items(items)
	if err != nil {
		return nil, err
	}
	return s.enqueue(ctx, projectID, in, OrdersImport{Rows: in.Rows}, nil)
}

func (s *Service) registerOrders(reg *async.Registry) {
	register(s, reg, kind[OrdersImport, json.RawMessage]{
		outside: eachRow(func(ctx context.Context, job *async.Job[OrdersImport], raw json.RawMessage) error {
			var in order.Params
			if err := decodeItem(raw, &in); err != nil {
				return err
			}
			_, err := s.svc.Orders.Create(ctx, job.Action().ProjectID, in)
			return err
		}),
		key:    func(_ OrdersImport, raw json.RawMessage) string { return rawKey(raw, "source_id") },
		row:    itemRow,
		result: func(_ OrdersImport, st state) any { return importResult(st, "order", withSourceID) },
	})
}
