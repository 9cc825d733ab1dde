package rule

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHistoryProgram: a rule set on history counters lists the counters
// it reads and the bounds it cannot pass without (a rule inside an `or`
// bounds nothing), and evaluates them from Input.History.
func TestHistoryProgram(t *testing.T) {
	t.Parallel()
	per := func(op string, n string) string {
		return `"name":"redemption.count.per_customer","conditions":{"` + op + `":[` + n + `]}`
	}
	tests := []struct {
		name     string
		js       string
		counters []Counter
		limits   []Limit
		total    bool
	}{
		{"less_than_or_equal", `{"logic":"1","1":{` + per("$less_than_or_equal", "3") + `}}`, []Counter{PerCustomer}, []Limit{{PerCustomer, 3}}, false},
		{"less_than", `{"logic":"1","1":{` + per("$less_than", "3") + `}}`, []Counter{PerCustomer}, []Limit{{PerCustomer, 2}}, false},
		{"fractional", `{"logic":"1","1":{` + per("$less_than", "2.5") + `}}`, []Counter{PerCustomer}, []Limit{{PerCustomer, 2}}, false},
		{"is", `{"logic":"1","1":{` + per("$is", "1") + `}}`, []Counter{PerCustomer}, []Limit{{PerCustomer, 1}}, false},
		{"more_than bounds nothing", `{"logic":"1","1":{` + per("$more_than", "1") + `}}`, []Counter{PerCustomer}, nil, false},
		{"and", `{"logic":"1 and 2","1":{"name":"campaign.redemptions.count.daily","conditions":{"$less_than_or_equal":[10]}},"2":{"name":"order.amount","conditions":{"$more_than":[0]}}}`,
			[]Counter{CampaignCountDaily}, []Limit{{CampaignCountDaily, 10}}, false},
		{"or bounds nothing", `{"logic":"1 or 2","1":{"name":"campaign.redemptions.count.daily","conditions":{"$less_than_or_equal":[10]}},"2":{"name":"order.amount","conditions":{"$more_than":[0]}}}`,
			[]Counter{CampaignCountDaily}, nil, false},
		{"budget needs pricing", `{"logic":"1","1":{"name":"campaign.orders.amount_discounted","conditions":{"$less_than_or_equal":[5000]}}}`,
			[]Counter{CampaignOrdersAmountDiscounted}, []Limit{{CampaignOrdersAmountDiscounted, 5000}}, true},
	}
	for _, tt := range tests {
		p := compile(t, tt.js)
		if diff := cmp.Diff([]any{tt.counters, tt.limits, tt.total}, []any{p.Counters, p.Limits, p.NeedsTotal}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}

	p := compile(t, `{"logic":"1 and 2","1":{"name":"customer.metadata","property":"tier","conditions":{"$is":["gold"]}},"2":{`+per("$less_than_or_equal", "2")+`,"error":{"message":"twice"}}}`)
	in := cart()
	for n, want := range map[int64]bool{0: true, 1: true, 2: true, 3: false} {
		in.History[PerCustomer] = n
		ok, msg, history := p.EvalHistory(in)
		if ok != want || (!ok && (msg != "twice" || !history)) {
			t.Errorf("count %d: got %v %q history %v, want %v", n, ok, msg, history, want)
		}
	}
	in.History[PerCustomer] = 1
	in.Customer = nil
	if ok, _, history := p.EvalHistory(in); ok || history {
		t.Errorf("a failing customer rule first: got ok %v history %v", ok, history)
	}
}
