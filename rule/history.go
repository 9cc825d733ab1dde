package rule

// Counter names a redemption-history fact a rule reads (the campaign
// budget and redemption count rules).
// The caller reads the counters a Program lists (Program.Counters) in one
// batch and passes them in Input.History.
type Counter uint8

// History counters. The count ones include the redemption being checked
// (docs/behaviour.md): `redemption.count.per_customer $less_than_or_equal
// [2]` lets a customer redeem twice.
const (
	// CampaignOrdersAmountDiscounted is the discount the campaign's
	// redemptions gave, this one's included.
	CampaignOrdersAmountDiscounted Counter = iota + 1
	// CampaignOrdersAmount is the order amount of the campaign's
	// redemptions, this one's included.
	CampaignOrdersAmount
	CampaignCount // the campaign's redemptions (all time, day, week, month)
	CampaignCountDaily
	CampaignCountWeekly
	CampaignCountMonthly
	CampaignCustomers // distinct customers with a net redemption in the campaign
	CampaignCustomersDaily
	CampaignCustomersWeekly
	CampaignCustomersMonthly
	RedeemableCountDaily // the redeemable's (voucher's, tier's) redemptions
	RedeemableCountWeekly
	RedeemableCountMonthly
	PerCustomer // the customer's redemptions of the redeemable
	PerCustomerDaily
	PerCustomerWeekly
	PerCustomerMonthly
	// NumCounters bounds the counters (Input.History's length).
	NumCounters
)

// PerCustomerCounter reports whether c counts one customer's redemptions
// (a request without a customer cannot be checked against it).
func (c Counter) PerCustomerCounter() bool { return c >= PerCustomer && c <= PerCustomerMonthly }

// historyNames maps the rule names to their counters.
var historyNames = map[string]Counter{
	"campaign.orders.amount_discounted":            CampaignOrdersAmountDiscounted,
	"campaign.orders.amount":                       CampaignOrdersAmount,
	"campaign.redemptions.count":                   CampaignCount,
	"campaign.redemptions.count.daily":             CampaignCountDaily,
	"campaign.redemptions.count.weekly":            CampaignCountWeekly,
	"campaign.redemptions.count.monthly":           CampaignCountMonthly,
	"campaign.redemptions.customers_count":         CampaignCustomers,
	"campaign.redemptions.customers_count.daily":   CampaignCustomersDaily,
	"campaign.redemptions.customers_count.weekly":  CampaignCustomersWeekly,
	"campaign.redemptions.customers_count.monthly": CampaignCustomersMonthly,
	"redemption.count.daily":                       RedeemableCountDaily,
	"redemption.count.weekly":                      RedeemableCountWeekly,
	"redemption.count.monthly":                     RedeemableCountMonthly,
	"redemption.count.per_customer":                PerCustomer,
	"redemption.count.per_customer.daily":          PerCustomerDaily,
	"redemption.count.per_customer.weekly":         PerCustomerWeekly,
	"redemption.count.per_customer.monthly":        PerCustomerMonthly,
}

// Limit is an upper bound a Program puts on a history counter whatever
// its other rules say (the rule is a conjunct of the whole logic): a
// redemption that would take the counter above Max must be refused, and
// the store checks it atomically when it adds the redemption's delta.
type Limit struct {
	Counter Counter
	Max     int64
}

// histBound is the largest value the conditions allow a count to take,
// and whether they bound it at all.
func histBound(conds []cond) (int64, bool) {
	var best int64
	found := false
	take := func(v int64) {
		if !found || v < best {
			best, found = v, true
		}
	}
	for i := range conds {
		c := &conds[i]
		switch c.op {
		case opLess:
			take(ceilInt(c.nums[0]) - 1)
		case opLessEq:
			take(floorInt(c.nums[0]))
		case opIs:
			if len(c.nums) == 1 && len(c.strs) == 1 {
				take(floorInt(c.nums[0]))
			}
		}
	}
	return best, found
}

func floorInt(f float64) int64 {
	n := int64(f)
	if float64(n) > f {
		n--
	}
	return n
}

func ceilInt(f float64) int64 {
	n := int64(f)
	if float64(n) < f {
		n++
	}
	return n
}

// conjuncts appends the leaves every true evaluation of x needs.
func conjuncts(x *expr, dst []int) []int {
	switch x.op {
	case opLeaf:
		return append(dst, x.rule)
	case opAnd:
		for _, k := range x.kids {
			dst = conjuncts(k, dst)
		}
	}
	return dst
}

// historyInfo fills the program's counters and limits after compiling.
func (p *Program) historyInfo() {
	seen := [NumCounters]bool{}
	for i := range p.rules {
		r := &p.rules[i]
		if r.spec.target != tHistory || seen[r.spec.counter] {
			continue
		}
		seen[r.spec.counter] = true
		p.Counters = append(p.Counters, r.spec.counter)
		if r.spec.counter == CampaignOrdersAmountDiscounted {
			p.NeedsTotal = true // the discount is known once priced
		}
	}
	if p.root == nil {
		return
	}
	for _, i := range conjuncts(p.root, nil) {
		r := &p.rules[i]
		if r.spec.target != tHistory {
			continue
		}
		if max, ok := histBound(r.conds); ok {
			p.Limits = append(p.Limits, Limit{Counter: r.spec.counter, Max: max})
		}
	}
}

// historyKind reports whether the first failing rule of an evaluation is
// a redemption-history rule.
func (p *Program) historyRule(i int) bool {
	return i >= 0 && i < len(p.rules) && p.rules[i].spec.target == tHistory
}
