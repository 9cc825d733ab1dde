package order

import (
	"context"
	"math"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

// CustomerSummary sums the orders of a customer for the orders part of its
// summary (customer.Service.SetOrderSummary takes it).
func (s *Service) CustomerSummary(ctx context.Context, projectID, customerID string) (customer.OrderSummary, error) {
	q := promotype.Query{Limit: math.MaxInt32, OrderBy: "created_at", Must: []promotype.Condition{
		{Field: "customer_id", Op: promotype.OpIs, Values: []string{customerID}}}}
	orders, _, err := s.store.ListOrders(ctx, projectID, q)
	if err != nil {
		return customer.OrderSummary{}, err
	}
	amounts, created := make([]int64, len(orders)), make([]promotype.Time, len(orders))
	for i, o := range orders {
		amounts[i], created[i] = o.Amount, o.CreatedAt
	}
	return customer.SummarizeOrders(amounts, created), nil
}
