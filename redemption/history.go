package redemption

import (
	"context"
	"strings"
	"time"

	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
)

// Redemption-history counters (the rules of rule.Counter). Each is a
// counter of the ledger (AddCounters): every successful child adds its
// deltas in the transaction that writes it, and a rollback subtracts
// them, so a counter is the sum of its rows. Keys name a scope (the
// redeemable, "voucher:v_…" or "tier:promo_…"; the campaign,
// "campaign:camp_…", or the redeemable for a voucher without one), what
// is counted and a period in the project's time zone: "all", a day
// ("d2026-11-24"), a week starting on Monday ("w2026-11-23") or a month
// ("m2026-11").

// Periods are the period suffixes of one instant.
type Periods struct{ Day, Week, Month string }

// PeriodsAt returns the periods t falls in, in loc.
func PeriodsAt(t time.Time, loc *time.Location) Periods {
	t = t.In(loc)
	back := (int(t.Weekday()) + 6) % 7 // days since Monday
	monday := time.Date(t.Year(), t.Month(), t.Day()-back, 0, 0, 0, 0, loc)
	return Periods{Day: "d" + t.Format("2006-01-02"), Week: "w" + monday.Format("2006-01-02"), Month: "m" + t.Format("2006-01")}
}

const periodAll = "all"

func histKey(scope, what, period string) string { return scope + ":h:" + what + ":" + period }

// Counted parts of a history key.
const (
	histRedeemable = "rcount"    // the redeemable's redemptions
	histCampaign   = "count"     // the campaign's redemptions
	histAmount     = "amount"    // the order amounts of the campaign's redemptions
	histDiscounted = "discount"  // the discounts of the campaign's redemptions
	histCustomers  = "customers" // distinct customers of the campaign
	histPerCust    = "c:"        // + customer id: a customer's redemptions of the redeemable
	histCampCust   = "cc:"       // + customer id: a customer's redemptions in the campaign
)

// scopes are the scopes of one redeemable's history counters.
type scopes struct {
	redeemable string // "voucher:v_…" or "tier:promo_…"
	campaign   string // "campaign:camp_…" (the redeemable without a campaign)
}

func newScopes(object, id, campaignID string) scopes {
	s := scopes{redeemable: "voucher:" + id}
	if object == ObjectPromotionTier {
		s.redeemable = "tier:" + id
	}
	s.campaign = s.redeemable
	if campaignID != "" {
		s.campaign = "campaign:" + campaignID
	}
	return s
}

// counterKey is the key counter c reads for a redeemable in scopes sc,
// customer id cust ("" without one) at periods p.
func counterKey(c rule.Counter, sc scopes, cust string, p Periods) string {
	switch c {
	case rule.CampaignOrdersAmountDiscounted:
		return histKey(sc.campaign, histDiscounted, periodAll)
	case rule.CampaignOrdersAmount:
		return histKey(sc.campaign, histAmount, periodAll)
	case rule.CampaignCount:
		return histKey(sc.campaign, histCampaign, periodAll)
	case rule.CampaignCountDaily:
		return histKey(sc.campaign, histCampaign, p.Day)
	case rule.CampaignCountWeekly:
		return histKey(sc.campaign, histCampaign, p.Week)
	case rule.CampaignCountMonthly:
		return histKey(sc.campaign, histCampaign, p.Month)
	case rule.CampaignCustomers:
		return histKey(sc.campaign, histCustomers, periodAll)
	case rule.CampaignCustomersDaily:
		return histKey(sc.campaign, histCustomers, p.Day)
	case rule.CampaignCustomersWeekly:
		return histKey(sc.campaign, histCustomers, p.Week)
	case rule.CampaignCustomersMonthly:
		return histKey(sc.campaign, histCustomers, p.Month)
	case rule.RedeemableCountDaily:
		return histKey(sc.redeemable, histRedeemable, p.Day)
	case rule.RedeemableCountWeekly:
		return histKey(sc.redeemable, histRedeemable, p.Week)
	case rule.RedeemableCountMonthly:
		return histKey(sc.redeemable, histRedeemable, p.Month)
	case rule.PerCustomer:
		return histKey(sc.redeemable, histPerCust+cust, periodAll)
	case rule.PerCustomerDaily:
		return histKey(sc.redeemable, histPerCust+cust, p.Day)
	case rule.PerCustomerWeekly:
		return histKey(sc.redeemable, histPerCust+cust, p.Week)
	case rule.PerCustomerMonthly:
		return histKey(sc.redeemable, histPerCust+cust, p.Month)
	}
	return ""
}

// campCustKey is the key of a customer's redemptions in the campaign over
// the period of customers counter c (the customer counts once while it
// is above zero).
func campCustKey(c rule.Counter, sc scopes, cust string, p Periods) string {
	return histKey(sc.campaign, histCampCust+cust, campCustPeriod(c, p))
}

// campCustPeriod is the period of the campaign-customer key of customers
// counter c.
func campCustPeriod(c rule.Counter, p Periods) string {
	switch c {
	case rule.CampaignCustomersDaily:
		return p.Day
	case rule.CampaignCustomersWeekly:
		return p.Week
	case rule.CampaignCustomersMonthly:
		return p.Month
	}
	return periodAll
}

var customerCounters = []rule.Counter{rule.CampaignCustomers, rule.CampaignCustomersDaily, rule.CampaignCustomersWeekly, rule.CampaignCustomersMonthly}

func isCustomers(c rule.Counter) bool {
	return c >= rule.CampaignCustomers && c <= rule.CampaignCustomersMonthly
}

// historyKeys appends the keys the candidates' rules read (with the
// campaign-customer keys their customers counters need).
func historyKeys(dst []string, cands []Candidate, cust string, p Periods) []string {
	for i := range cands {
		c := &cands[i]
		for _, prog := range c.Programs {
			for _, ctr := range prog.Counters {
				if ctr.PerCustomerCounter() && cust == "" {
					continue // no customer: nothing counted yet (or missing_customer)
				}
				dst = append(dst, counterKey(ctr, c.scopes, cust, p))
				if isCustomers(ctr) && cust != "" {
					dst = append(dst, campCustKey(ctr, c.scopes, cust, p))
				}
			}
		}
	}
	return dst
}

// fillHistory sets the history counters c's program reads in in: the
// stored value and this redemption's own part (one more redemption, one
// more customer when the customer has none in the period yet, the
// request's order amount; the discount is added after pricing).
func (ev *evaluator) fillHistory(c *Candidate, prog *rule.Program, in *rule.Input) {
	h := &ev.req.History
	for _, ctr := range prog.Counters {
		var own int64
		switch {
		case ctr == rule.CampaignOrdersAmount:
			own = ev.req.Order.Amount
		case ctr == rule.CampaignOrdersAmountDiscounted:
			own = ev.discounted
		case isCustomers(ctr):
			if h.HasCustomer && (h.CustomerID == "" || h.Counts[campCustKey(ctr, c.scopes, h.CustomerID, h.Periods)] <= 0) {
				own = 1
			}
		default:
			own = 1
		}
		var stored int64
		if !ctr.PerCustomerCounter() || h.CustomerID != "" {
			stored = h.Counts[counterKey(ctr, c.scopes, h.CustomerID, h.Periods)]
		}
		in.History[ctr] = stored + own
	}
}

// customerNeeded is missing_customer when c's rules count a customer's
// redemptions and the request names none.
func (ev *evaluator) customerNeeded(c *Candidate) *promotype.Error {
	if ev.req.History.HasCustomer {
		return nil
	}
	for _, p := range c.Programs {
		for _, ctr := range p.Counters {
			if ctr.PerCustomerCounter() {
				return promotype.BadRequest("missing_customer", "Missing customer",
					"A customer is required to redeem %s: its validation rules count redemptions per customer", c.ID)
			}
		}
	}
	return nil
}

// History is what the history rules of a request read: the stored
// counters (one batched read) and who and when is redeeming.
type History struct {
	Counts      map[string]int64
	CustomerID  string // the stored customer ("" when unknown: nothing counted yet)
	HasCustomer bool   // the request names a customer
	Periods     Periods
}

// readHistory reads, in one batch, the counters the candidates' rules need.
func readHistory(ctx context.Context, st LedgerStore, projectID string, cands []Candidate, h *History) error {
	keys := historyKeys(nil, cands, h.CustomerID, h.Periods)
	if len(keys) == 0 {
		return nil
	}
	counts, err := st.Counters(ctx, projectID, keys...)
	if err != nil {
		return err
	}
	h.Counts = counts
	return nil
}

// historyDeltas are the history counters one successful child adds (the
// caller appends them to the row's counters, so its rollback takes them
// back). limits caps them as the candidate's programs require.
func historyDeltas(c *Candidate, cust string, p Periods, amount, discounted int64) []CounterDelta {
	sc := c.scopes
	n := 9
	if cust != "" {
		n += 8
	}
	k := newHistKeys(n, max(len(sc.redeemable), len(sc.campaign)), len(cust))
	k.add(sc.redeemable, histRedeemable, "", p.Day, 1)
	k.add(sc.redeemable, histRedeemable, "", p.Week, 1)
	k.add(sc.redeemable, histRedeemable, "", p.Month, 1)
	k.add(sc.campaign, histCampaign, "", periodAll, 1)
	k.add(sc.campaign, histCampaign, "", p.Day, 1)
	k.add(sc.campaign, histCampaign, "", p.Week, 1)
	k.add(sc.campaign, histCampaign, "", p.Month, 1)
	k.add(sc.campaign, histAmount, "", periodAll, amount)
	k.add(sc.campaign, histDiscounted, "", periodAll, discounted)
	if cust != "" {
		for _, period := range []string{periodAll, p.Day, p.Week, p.Month} {
			k.add(sc.redeemable, histPerCust, cust, period, 1)
		}
		for _, ctr := range customerCounters {
			k.add(sc.campaign, histCampCust, cust, campCustPeriod(ctr, p), 1)
		}
	}
	ds := k.counterDeltas()
	for _, prog := range c.Programs {
		for _, l := range prog.Limits {
			if isCustomers(l.Counter) || (l.Counter.PerCustomerCounter() && cust == "") {
				continue // distinctDeltas caps the customers counters
			}
			capDelta(ds, counterKey(l.Counter, sc, cust, p), l.Max)
		}
	}
	return ds
}

// histKeys builds the deltas of history keys (histKey) whose keys are
// substrings of one string: the keys of a redemption cost one allocation,
// not one each.
type histKeys struct {
	b    strings.Builder
	ends []int // where each key ends in b
	ds   []CounterDelta
}

// newHistKeys returns a histKeys for n keys whose scopes are at most
// scope bytes long, 8 of them (when n > 9) with a customer id of cust
// bytes.
func newHistKeys(n, scope, cust int) *histKeys {
	h := &histKeys{ends: make([]int, 0, n), ds: make([]CounterDelta, 0, n)}
	h.b.Grow(n*(scope+len(":h:discount:d2026-11-24")) + max(n-9, 0)*cust) // the longest what and period
	return h
}

// add adds delta to histKey(scope, what+who, period).
func (h *histKeys) add(scope, what, who, period string, delta int64) {
	for _, s := range [...]string{scope, ":h:", what, who, ":", period} {
		h.b.WriteString(s)
	}
	h.ends, h.ds = append(h.ends, h.b.Len()), append(h.ds, CounterDelta{Delta: delta})
}

// counterDeltas returns the deltas added, in order.
func (h *histKeys) counterDeltas() []CounterDelta {
	all, start := h.b.String(), 0
	for i, end := range h.ends {
		h.ds[i].Key, start = all[start:end], end
	}
	return h.ds
}

// capDelta sets the Max of key's delta in ds (the lowest bound wins).
func capDelta(ds []CounterDelta, key string, max int64) {
	for i := range ds {
		if ds[i].Key == key && (ds[i].Max == nil || *ds[i].Max > max) {
			m := max
			ds[i].Max = &m
		}
	}
}

// campCustKeys are the campaign-customer counters among ds, whose values
// after the change distinctDeltas needs (AddCountersRead reads them with
// the change).
func campCustKeys(ds []CounterDelta) []string {
	var keys []string
	for _, d := range ds {
		if strings.Contains(d.Key, ":h:"+histCampCust) {
			keys = append(keys, d.Key)
		}
	}
	return keys
}

// distinctDeltas are the changes of the distinct-customers counters that
// follow the campaign-customer counters ds just changed: now holds their
// values after the change, read in the same transaction (the writes lock
// them until it ends). A customer whose count went from 0 counts once
// more, one whose count fell to 0 once less. caps are the limits on the
// customers counters, by key. The second result names, for each change,
// the campaign-customer key it follows.
func distinctDeltas(now map[string]int64, ds []CounterDelta, caps map[string]int64) ([]CounterDelta, []string) {
	keys := campCustKeys(ds)
	if len(keys) == 0 {
		return nil, nil
	}
	net := map[string]int64{}
	for _, d := range ds {
		if _, ok := now[d.Key]; ok {
			net[d.Key] += d.Delta
		}
	}
	var out []CounterDelta
	var from []string
	for _, k := range keys {
		n, d := now[k], net[k]
		if d == 0 {
			continue
		}
		net[k] = 0 // a key listed twice moves the customers once
		var delta int64
		switch {
		case d > 0 && n == d:
			delta = 1
		case d < 0 && n == 0:
			delta = -1
		default:
			continue
		}
		ck := customersKeyOf(k)
		cd := CounterDelta{Key: ck, Delta: delta}
		if m, ok := caps[ck]; ok {
			cd.Max = &m
		}
		out, from = append(out, cd), append(from, k)
	}
	return out, from
}

// isCustomersKey reports whether k is a distinct-customers counter (a
// rollback recomputes its change rather than negating it).
func isCustomersKey(k string) bool { return strings.Contains(k, ":h:"+histCustomers+":") }

// customersKeyOf is the distinct-customers key of a campaign-customer key
// ("<scope>:h:cc:<customer>:<period>" → "<scope>:h:customers:<period>").
func customersKeyOf(k string) string {
	i := strings.LastIndex(k, ":h:"+histCampCust)
	period := k[strings.LastIndex(k, ":")+1:]
	return histKey(k[:i], histCustomers, period)
}

// customersCaps are the limits c's programs put on its customers counters.
func customersCaps(caps map[string]int64, c *Candidate, p Periods) map[string]int64 {
	for _, prog := range c.Programs {
		for _, l := range prog.Limits {
			if !isCustomers(l.Counter) {
				continue
			}
			if caps == nil {
				caps = map[string]int64{}
			}
			k := counterKey(l.Counter, c.scopes, "", p)
			if m, ok := caps[k]; !ok || l.Max < m {
				caps[k] = l.Max
			}
		}
	}
	return caps
}
