package customer_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/promotype"
)

func TestSummarizeOrders(t *testing.T) {
	t1 := promotype.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	t2 := promotype.NewTime(time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC))
	tests := []struct {
		name    string
		amounts []int64
		created []promotype.Time
		want    customer.OrderSummary
	}{
		{"none", nil, nil, customer.OrderSummary{}},
		{"average rounds half up", []int64{100, 201}, []promotype.Time{t1, t2},
			customer.OrderSummary{TotalAmount: 301, TotalCount: 2, AverageAmount: 151, LastOrderAmount: 201, LastOrderDate: &t2}},
		{"one", []int64{5}, []promotype.Time{t1}, customer.OrderSummary{TotalAmount: 5, TotalCount: 1, AverageAmount: 5, LastOrderAmount: 5, LastOrderDate: &t1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, customer.SummarizeOrders(tc.amounts, tc.created)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
