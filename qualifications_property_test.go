package promo_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/catalog"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/publication"
	"github.com/promoengine/promo/redemption"
	"github.com/promoengine/promo/reward"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/voucher"
)

// qualWorld is a random project for the qualification property: its
// products, customers, and every redeemable a qualification may return.
type qualWorld struct {
	eng       *promo.Engine
	project   string
	products  []string
	customers []string
	tiers     []string // every promotion tier
	public    []string // codes of the standalone vouchers (no holder)
	held      map[string][]string
	stacks    []string
	campaigns []string // campaigns of codes given by publication
	coin      string   // the pay-with-points reward of the loyalty campaign
	redeemed  int      // successful history redemptions
}

// qualRules are the rules the world's redeemables draw from: items,
// customer metadata, order amount, and the history rules the hosted
// service ignores in qualifications (per-customer count, campaign budget,
// campaign redemption count).
func qualRules(products []string) []string {
	out := []string{
		`{"name":"vip","rules":{"1":{"name":"customer.metadata","property":"vip","conditions":{"$is":[true]}},"logic":"1"}}`,
		`{"name":"big","rules":{"1":{"name":"order.amount","conditions":{"$more_than_or_equal":[3000]}},"logic":"1"}}`,
		`{"name":"once per customer","rules":{"1":{"name":"redemption.count.per_customer","conditions":{"$less_than":[1]}},"logic":"1"}}`,
		`{"name":"budget","rules":{"1":{"name":"campaign.orders.amount_discounted","conditions":{"$less_than_or_equal":[600]}},"logic":"1"}}`,
		`{"name":"three redemptions","rules":{"1":{"name":"campaign.redemptions.count","conditions":{"$less_than":[3]}},"logic":"1"}}`,
	}
	for _, p := range products[:3] {
		out = append(out,
			`{"name":"has `+p+`","rules":{"1":{"name":"order.items.any","conditions":{"$is":[{"id":"`+p+`","object":"product"}]}},"logic":"1"}}`,
			`{"name":"on `+p+`","applicable_to":{"included":[{"object":"product","id":"`+p+`","effect":"APPLY_TO_EVERY"}]}}`)
	}
	return out
}

// discountJSON is a random discount.
func discountJSON(rng *rand.Rand) string {
	switch rng.IntN(3) {
	case 0:
		return fmt.Sprintf(`{"type":"AMOUNT","amount_off":%d}`, 50+rng.IntN(400))
	case 1:
		return fmt.Sprintf(`{"type":"PERCENT","percent_off":%d}`, 5+rng.IntN(30))
	}
	return fmt.Sprintf(`{"type":"PERCENT","percent_off":%d,"effect":"APPLY_TO_ITEMS"}`, 5+rng.IntN(30))
}

func newQualWorld(t *testing.T, f fixture, rng *rand.Rand) *qualWorld {
	t.Helper()
	eng, p := f.eng, f.project
	w := &qualWorld{eng: eng, project: p, held: map[string][]string{}}
	for i := range 5 {
		w.products = append(w.products, must[*catalog.Product](t)(eng.Catalog().CreateProduct(ctx, p, js[catalog.ProductParams](t,
			fmt.Sprintf(`{"name":"P%d","price":%d}`, i, 300+rng.IntN(2000))))).ID)
	}
	for i := range 3 {
		id := fmt.Sprintf("cust%d", i)
		must[*customer.Customer](t)(eng.Customers().Upsert(ctx, p, customer.Params{SourceID: &id, Metadata: promotype.Metadata{"vip": rng.IntN(2) == 0}}))
		w.customers = append(w.customers, id)
	}
	var rules []string
	for _, r := range qualRules(w.products) {
		rules = append(rules, must[*rule.ValidationRule](t)(eng.ValidationRules().Create(ctx, p, ruleParams(t, r))).ID)
	}
	pick := func() []string { // 0 to 2 rules
		var out []string
		for range rng.IntN(3) {
			if r := rules[rng.IntN(len(rules))]; !slices.Contains(out, r) {
				out = append(out, r)
			}
		}
		return out
	}
	quoted := func(ids []string) string {
		if len(ids) == 0 {
			return "[]"
		}
		return `["` + strings.Join(ids, `","`) + `"]`
	}
	for c := range 2 {
		camp := must[*campaign.Campaign](t)(eng.Campaigns().Create(ctx, p, js[campaign.Params](t,
			fmt.Sprintf(`{"name":"Promo %d","campaign_type":"PROMOTION"}`, c)))).ID
		for k := range 4 {
			w.tiers = append(w.tiers, must[*campaign.PromotionTier](t)(eng.PromotionTiers().Create(ctx, p, camp, js[campaign.TierParams](t,
				fmt.Sprintf(`{"name":"T%d%d","action":{"discount":%s},"validation_rules":%s}`, c, k, discountJSON(rng), quoted(pick()))))).ID)
		}
		w.stacks = append(w.stacks, must[*campaign.PromotionStack](t)(eng.PromotionStacks().Create(ctx, p, camp, js[campaign.StackParams](t,
			fmt.Sprintf(`{"name":"S%d","tiers":{"ids":["%s","%s"],"hierarchy_mode":"MANUAL"}}`, c, w.tiers[len(w.tiers)-1], w.tiers[len(w.tiers)-2])))).ID)
	}
	for i := range 8 {
		code := fmt.Sprintf("PUB%d", i)
		body := fmt.Sprintf(`{"type":"DISCOUNT_VOUCHER","discount":%s,"redemption":{"quantity":%d},"validation_rules":%s}`, discountJSON(rng), 1+rng.IntN(3), quoted(pick()))
		if i >= 6 {
			body = fmt.Sprintf(`{"type":"GIFT_VOUCHER","gift":{"amount":%d},"validation_rules":%s}`, 100+rng.IntN(3000), quoted(pick()))
		}
		in := js[voucher.Params](t, body)
		in.Code = &code
		if rng.IntN(6) == 0 {
			in.Active = promotype.Ptr(false)
		}
		must[*voucher.Voucher](t)(eng.Vouchers().Create(ctx, p, in))
		w.public = append(w.public, code)
	}
	camp := must[*campaign.Campaign](t)(eng.Campaigns().Create(ctx, p, js[campaign.Params](t,
		fmt.Sprintf(`{"name":"Coupons","vouchers_count":6,"voucher":{"type":"DISCOUNT_VOUCHER","discount":%s,"redemption":{"quantity":2}}}`, discountJSON(rng))))).ID
	if rs := pick(); len(rs) > 0 {
		must[*rule.Assignment](t)(eng.ValidationRules().Assign(ctx, p, rs[0], rule.AssignmentParams{RelatedObjectType: "campaign", RelatedObjectID: camp}, false))
	}
	gifts := must[*campaign.Campaign](t)(eng.Campaigns().Create(ctx, p, js[campaign.Params](t,
		fmt.Sprintf(`{"name":"Gifts","campaign_type":"GIFT_VOUCHERS","vouchers_count":2,"voucher":{"type":"GIFT_VOUCHER","gift":{"amount":%d}},"validation_rules":%s}`,
			100+rng.IntN(2000), quoted(firstOf(pick())))))).ID
	w.campaigns = []string{camp, gifts}
	// Loyalty cards: their campaign pays with points (a random rate).
	club := must[*campaign.Campaign](t)(eng.Campaigns().Create(ctx, p, js[campaign.Params](t,
		`{"name":"Club","campaign_type":"LOYALTY_PROGRAM","vouchers_count":3,"voucher":{"type":"LOYALTY_CARD","loyalty_card":{"points":0}}}`))).ID
	w.coin = must[*reward.Reward](t)(eng.Rewards().Create(ctx, p, js[reward.Params](t, fmt.Sprintf(
		`{"name":"Pay with points","type":"COIN","parameters":{"coin":{"exchange_ratio":%d,"points_ratio":%d}}}`, 1+rng.IntN(3), 1+rng.IntN(20))))).ID
	must[*reward.Assignment](t)(eng.Rewards().CreateAssignment(ctx, p, w.coin, js[reward.AssignmentParams](t,
		`{"campaign":"`+club+`"}`)))
	must[int](t)(eng.AsyncActions().RunPending(ctx, async.Config{ChunkSize: 100}))
	for range 5 {
		c := w.customers[rng.IntN(len(w.customers))]
		pub := must[*publication.Publication](t)(eng.Publications().Create(ctx, p, publication.CreateParams{
			Campaign: &publication.CampaignRef{Name: promotype.Ptr("Coupons")}, Customer: &customer.Params{SourceID: &c}}))
		w.held[c] = append(w.held[c], pub.Voucher.Code)
	}
	for _, c := range w.customers[:2] {
		pub := must[*publication.Publication](t)(eng.Publications().Create(ctx, p, publication.CreateParams{
			Campaign: &publication.CampaignRef{Name: promotype.Ptr("Club")}, Customer: &customer.Params{SourceID: &c}}))
		if n := rng.IntN(3) * rng.IntN(600); n > 0 { // some cards hold no points
			must[*redemption.Balance](t)(eng.Redemptions().AddBalance(ctx, p, pub.Voucher.Code, redemption.BalanceParams{Amount: promotype.Ptr(int64(n))}))
		}
		w.held[c] = append(w.held[c], pub.Voucher.Code)
	}
	// History: redemptions use up quantities, budgets and per-customer
	// counts (failures are fine).
	for range 12 {
		red := w.randomRedeemable(rng)
		body := w.request(rng, fmt.Sprintf(`"redeemables":[{"object":%q,"id":%q}],`, red[0], red[1]))
		if _, err := eng.Redemptions().Redeem(ctx, p, js[redemption.ValidationParams](t, body), redemption.RedeemOptions{}); err == nil {
			w.redeemed++
		}
	}
	return w
}

func (w *qualWorld) randomRedeemable(rng *rand.Rand) [2]string {
	switch rng.IntN(3) {
	case 0:
		return [2]string{"promotion_tier", w.tiers[rng.IntN(len(w.tiers))]}
	case 1:
		if c := w.customers[rng.IntN(len(w.customers))]; len(w.held[c]) > 0 {
			return [2]string{"voucher", w.held[c][0]}
		}
	}
	return [2]string{"voucher", w.public[rng.IntN(len(w.public))]}
}

// request is a random body: a cart of 0 to 4 lines, a customer or none,
// with extra (fields ending in a comma) first.
func (w *qualWorld) request(rng *rand.Rand, extra string) string {
	var lines []string
	for _, p := range w.products {
		if rng.IntN(2) == 0 {
			lines = append(lines, fmt.Sprintf(`{"product_id":%q,"quantity":%d}`, p, 1+rng.IntN(3)))
		}
	}
	body := `{` + extra + `"order":{"items":[` + strings.Join(lines, ",") + `]}`
	if n := rng.IntN(len(w.customers) + 1); n < len(w.customers) {
		body += `,"customer":{"source_id":"` + w.customers[n] + `"}`
	}
	return body + `}`
}

// validateAlone validates one redeemable with the request's order and
// customer; it returns whether it applies and the discount it gives. A
// campaign is validated through the code a publication would give next
// (its free voucher of lowest id; none: it does not apply); a loyalty card
// pays with all its points for the pay-with-points reward (without points
// it pays nothing: it does not apply).
func (w *qualWorld) validateAlone(t *testing.T, req redemption.QualificationParams, object, id string) (bool, int64) {
	t.Helper()
	red := redemption.RedeemableParams{Object: object, ID: id}
	if object == "campaign" {
		if red.Object, red.ID = "voucher", w.nextCode(t, id); red.ID == "" {
			return false, 0
		}
	}
	if object == "voucher" {
		if v, err := w.eng.Vouchers().Get(ctx, w.project, red.ID); err == nil && v.Type == campaign.LoyaltyCard {
			if v.LoyaltyCard.Balance == 0 {
				return false, 0 // it pays nothing: not a redeemable for this order
			}
			red.Reward = &redemption.RewardParams{ID: w.coin, Points: promotype.Ptr(v.LoyaltyCard.Balance)}
		}
	}
	v := must[*redemption.Validation](t)(w.eng.Validations().Validate(ctx, w.project, redemption.ValidationParams{
		Redeemables: []redemption.RedeemableParams{red}, Order: req.Order, Customer: req.Customer}))
	if !v.Valid {
		return false, 0
	}
	if object != "promotion_stack" && (len(v.Redeemables) != 1 || v.Redeemables[0].Status != redemption.Applicable) {
		return false, 0
	}
	return true, v.Order.TotalAppliedDiscountAmount
}

// firstOf is ids' first id alone (none when empty): a campaign takes at
// most one rule.
func firstOf(ids []string) []string { return ids[:min(1, len(ids))] }

// nextCode is the code a publication of campaign id gives next: its
// active voucher without holder of lowest id ("" when none is left).
func (w *qualWorld) nextCode(t *testing.T, id string) string {
	t.Helper()
	l := must[*promotype.List[*voucher.Voucher]](t)(w.eng.Vouchers().List(ctx, w.project, voucher.ListParams{
		ListParams: promotype.ListParams{Limit: 100}, CampaignID: &id}))
	best := ""
	var code string
	for _, v := range l.Data {
		if v.Active && v.HolderID == nil && (best == "" || v.ID < best) {
			best, code = v.ID, v.Code
		}
	}
	return code
}

// TestQualificationProperty: on random projects with quantities,
// per-customer limits, campaign budgets and redemption history, every
// redeemable a qualification returns (each scenario but AUDIENCE_ONLY,
// which ignores the order's rules by definition) validates as APPLICABLE
// alone for the same order and customer, with the same discount (a
// campaign through the code it would give, a loyalty card paying with its
// points); and ALL misses none of the tiers, public vouchers, wallet
// vouchers and loyalty cards, and campaigns that do.
func TestQualificationProperty(t *testing.T) {
	seeds := 6
	if testing.Short() {
		seeds = 2
	}
	eachStore(t, func(t *testing.T, f fixture) {
		seeds := seeds
		if strings.Contains(t.Name(), "postgres") { // slower: fewer projects
			seeds = min(seeds, 2)
		}
		for seed := range seeds {
			rng := rand.New(rand.NewPCG(uint64(seed), 7))
			if seed > 0 { // a fresh project per seed
				f.project = must[*project.Project](t)(f.eng.Projects().Create(ctx, project.Params{Name: "Shop" + fmt.Sprint(seed)})).ID
			}
			w := newQualWorld(t, f, rng)
			t.Logf("seed %d: %d history redemptions", seed, w.redeemed)
			scenarios := []string{"ALL", "CUSTOMER_WALLET", "PRODUCTS", "PRODUCTS_DISCOUNT", "PROMOTION_STACKS", "PRODUCTS_BY_CUSTOMER", "PRODUCTS_DISCOUNT_BY_CUSTOMER"}
			checked, seen := 0, map[string]int{}
			for i := range 25 {
				sc := scenarios[i%len(scenarios)]
				body := w.request(rng, `"scenario":"`+sc+`","options":{"limit":50,"sorting_rule":"BEST_DEAL"},`)
				req := js[redemption.QualificationParams](t, body)
				q := must[*redemption.Qualification](t)(w.eng.Qualifications().Qualify(ctx, w.project, req))
				got := map[string]bool{}
				for _, r := range q.Redeemables.Data {
					got[r.Object+":"+r.ID] = true
					seen[r.Object]++
					if r.Result.LoyaltyCard != nil {
						seen["loyalty_card"]++
					}
					ok, disc := w.validateAlone(t, req, r.Object, r.ID)
					if !ok || disc != r.Order.TotalAppliedDiscountAmount {
						t.Errorf("seed %d %s: %s %s qualified (discount %d) but validates %v (discount %d)\n%s",
							seed, sc, r.Object, r.ID, r.Order.TotalAppliedDiscountAmount, ok, disc, body)
					}
					checked++
				}
				if sc != "ALL" {
					continue
				}
				cands := [][2]string{}
				for _, id := range w.tiers {
					cands = append(cands, [2]string{"promotion_tier", id})
				}
				for _, code := range w.public {
					cands = append(cands, [2]string{"voucher", code})
				}
				if req.Customer != nil {
					for _, code := range w.held[*req.Customer.SourceID] {
						cands = append(cands, [2]string{"voucher", code})
					}
				}
				for _, id := range w.campaigns {
					cands = append(cands, [2]string{"campaign", id})
				}
				for _, c := range cands {
					if ok, _ := w.validateAlone(t, req, c[0], c[1]); ok && !got[c[0]+":"+c[1]] {
						t.Errorf("seed %d ALL: %s %s validates but is not qualified\n%s", seed, c[0], c[1], body)
					}
				}
			}
			t.Logf("seed %d: %d qualified redeemables checked (by object %v)", seed, checked, seen)
			if checked == 0 {
				t.Errorf("seed %d: nothing qualified in 25 requests", seed)
			}
		}
	})
}
