package promo_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/promoengine/promo"
	"github.com/promoengine/promo/async"
	"github.com/promoengine/promo/campaign"
	"github.com/promoengine/promo/customer"
	"github.com/promoengine/promo/order"
	"github.com/promoengine/promo/project"
	"github.com/promoengine/promo/promotype"
	"github.com/promoengine/promo/rule"
	"github.com/promoengine/promo/storage/memory"
	"github.com/promoengine/promo/voucher"
	"github.com/promoengine/promo/webhook"
)

// outboxFixture is an engine over a memory store whose outbox the test reads.
type outboxFixture struct {
	fixture
	store *memory.Store
}

func newOutboxFixture(t *testing.T) outboxFixture {
	t.Helper()
	store := memory.New()
	clock := promotype.NewManualClock(t0)
	eng, err := promo.New(store, promo.WithClock(clock), promo.WithIDGenerator(&promotype.SequentialIDs{}))
	if err != nil {
		t.Fatal(err)
	}
	p := must[*project.Project](t)(eng.Projects().Create(ctx, project.Params{Name: "Shop"}))
	// A configuration hearing every event, so that every one is recorded
	// (the outbox drops events nobody would be sent).
	if err := store.InsertWebhook(ctx, &webhook.Webhook{ID: "wh_all", Object: "webhook", ProjectID: p.ID, CreatedAt: p.CreatedAt,
		TargetURL: "https://hooks.example.com/all", Events: webhook.Events, Active: true}); err != nil {
		t.Fatal(err)
	}
	return outboxFixture{fixture: fixture{eng: eng, clock: clock, project: p.ID}, store: store}
}

// outboxEvent is what a test checks of an outbox event: its type, entity id
// and data keys, each with the `object` of its value ("" for a value that is
// not an object, "null" for null).
type outboxEvent struct {
	Type     string
	EntityID string
	Data     map[string]string
}

// ev is the outboxEvent of type typ about id with data keys: a key alone
// holds the object of that name (the rule's is validation_rules, an
// assignment's validation_rules_assignment), "key=" a scalar, "key=null"
// null.
func ev(typ, id string, keys ...string) outboxEvent {
	objects := map[string]string{"rule": "validation_rules", "assignment": "validation_rules_assignment"}
	data := map[string]string{}
	for _, k := range keys {
		if name, v, ok := strings.Cut(k, "="); ok {
			data[name] = v
			continue
		}
		data[k] = k
		if o, ok := objects[k]; ok {
			data[k] = o
		}
	}
	return outboxEvent{Type: typ, EntityID: id, Data: data}
}

// since returns the project's outbox events from the index from on.
func (f outboxFixture) since(t *testing.T, from int) []outboxEvent {
	t.Helper()
	evs := f.store.Events(f.project)
	out := []outboxEvent{}
	for _, e := range evs[from:] {
		var data map[string]json.RawMessage
		if err := json.Unmarshal(e.Data, &data); err != nil {
			t.Fatalf("%s data: %v", e.Type, err)
		}
		row := outboxEvent{Type: e.Type, EntityID: e.EntityID, Data: map[string]string{}}
		for k, raw := range data {
			var obj struct {
				Object string `json:"object"`
			}
			switch {
			case string(raw) == "null":
				row.Data[k] = "null"
			case json.Unmarshal(raw, &obj) == nil:
				row.Data[k] = obj.Object
			default:
				row.Data[k] = ""
			}
		}
		if !webhook.IsEvent(e.Type) || !strings.HasPrefix(e.ID, promotype.PrefixEvent) || !e.CreatedAt.Equal(f.clock.Now()) {
			t.Errorf("event %s %s at %v is not a catalogue event made now", e.ID, e.Type, e.CreatedAt)
		}
		out = append(out, row)
	}
	return out
}

func (f outboxFixture) count() int { return len(f.store.Events(f.project)) }

// step is one operation of the emission scenario: do performs it and
// returns the events it must append, in order.
type step struct {
	name string
	do   func(t *testing.T) []outboxEvent
}

// Every operation with an event name appends its event in its transaction,
// with the data keys the hosted service documents for it; a bulk generation appends only
// the campaign.vouchers.* events, not one voucher.created per voucher.
func TestEventsEmittedByOperations(t *testing.T) {
	f := newOutboxFixture(t)
	e, p := f.eng, f.project
	var (
		vr, vr2   *rule.ValidationRule
		coupons   *campaign.Campaign
		couponsRA string // the assignment of rule to coupons
		single    *voucher.Voucher
		alone     *voucher.Voucher
		aloneRA   string
		promos    *campaign.Campaign
		tierA     *campaign.PromotionTier
		tierB     *campaign.PromotionTier
		stack     *campaign.PromotionStack
		promosRA  *rule.Assignment
		cust      *customer.Customer
	)
	steps := []step{
		{"customer create", func(t *testing.T) []outboxEvent {
			cust = must[*customer.Customer](t)(e.Customers().Upsert(ctx, p, customer.Params{SourceID: promo.Ptr("alice")}))
			return []outboxEvent{ev("customer.created", cust.ID, "customer")}
		}},
		{"customer upsert that updates", func(t *testing.T) []outboxEvent {
			must[*customer.Customer](t)(e.Customers().Upsert(ctx, p, customer.Params{SourceID: promo.Ptr("alice"), Name: promo.Ptr("Alice")}))
			return nil
		}},
		{"customer created by an order", func(t *testing.T) []outboxEvent {
			must[*order.Order](t)(e.Orders().Create(ctx, p, order.Params{Customer: &customer.Params{SourceID: promo.Ptr("bob")}}))
			bob := must[*customer.Customer](t)(e.Customers().Get(ctx, p, "bob"))
			return []outboxEvent{ev("customer.created", bob.ID, "customer")}
		}},
		{"customer update", func(t *testing.T) []outboxEvent {
			must[*customer.Customer](t)(e.Customers().Update(ctx, p, "bob", customer.UpdateParams{Params: customer.Params{Name: promo.Ptr("Bob")}}))
			return nil
		}},
		{"customer delete and permanent deletions", func(t *testing.T) []outboxEvent {
			dave := must[*customer.Customer](t)(e.Customers().Upsert(ctx, p, customer.Params{SourceID: promo.Ptr("dave")}))
			erin := must[*customer.Customer](t)(e.Customers().Upsert(ctx, p, customer.Params{SourceID: promo.Ptr("erin")}))
			if err := e.Customers().Delete(ctx, p, "dave"); err != nil {
				t.Fatal(err)
			}
			must[*customer.PermanentDeletion](t)(e.Customers().DeletePermanently(ctx, p, dave.ID)) // from the bin: no second event
			must[*customer.PermanentDeletion](t)(e.Customers().DeletePermanently(ctx, p, "erin"))
			return []outboxEvent{ev("customer.created", dave.ID, "customer"), ev("customer.created", erin.ID, "customer"),
				ev("customer.deleted", dave.ID, "customer"), ev("customer.deleted", erin.ID, "customer")}
		}},
		{"rule create", func(t *testing.T) []outboxEvent {
			vr = must[*rule.ValidationRule](t)(e.ValidationRules().Create(ctx, p, ruleParams(t, `{"name":"Big","rules":{"1":{"name":"order.amount","conditions":{"$more_than":[100]}},"logic":"1"}}`)))
			vr2 = must[*rule.ValidationRule](t)(e.ValidationRules().Create(ctx, p, ruleParams(t, `{"name":"Bigger","rules":{"1":{"name":"order.amount","conditions":{"$more_than":[1000]}},"logic":"1"}}`)))
			return []outboxEvent{ev("business_validation_rule.created", vr.ID, "rule", "created_at="), ev("business_validation_rule.created", vr2.ID, "rule", "created_at=")}
		}},
		{"rule update", func(t *testing.T) []outboxEvent {
			must[*rule.ValidationRule](t)(e.ValidationRules().Update(ctx, p, vr.ID, ruleParams(t, `{"name":"Big orders"}`)))
			return []outboxEvent{ev("business_validation_rule.updated", vr.ID, "rule", "updated_at=")}
		}},
		{"voucher campaign create with a rule", func(t *testing.T) []outboxEvent {
			in := discountCampaign("Coupons", 2)
			in.ValidationRules = []string{vr.ID}
			coupons = createCampaign(t, f.fixture, in)
			couponsRA = coupons.ValidationRulesAssignments.Data[0].ID
			return []outboxEvent{
				ev("business_validation_rule.assignment.created", couponsRA, "rule", "assignment", "campaign"),
				ev("campaign.created", coupons.ID, "campaign", "created_at="),
			}
		}},
		{"its generation", func(t *testing.T) []outboxEvent {
			runPending(t, f.fixture)
			return []outboxEvent{
				ev("campaign.vouchers.generation.started", coupons.ID, "campaign", "count="),
				ev("campaign.vouchers.generation.completed", coupons.ID, "campaign", "count=", "completed_at="),
			}
		}},
		{"campaign update", func(t *testing.T) []outboxEvent {
			must[*campaign.Campaign](t)(e.Campaigns().Update(ctx, p, coupons.ID, campaign.UpdateParams{Description: promo.Ptr("d")}))
			runPending(t, f.fixture) // the voucher update action records nothing
			return []outboxEvent{ev("campaign.updated", coupons.ID, "campaign")}
		}},
		{"campaign disable and enable", func(t *testing.T) []outboxEvent {
			must[*campaign.Campaign](t)(e.Campaigns().Disable(ctx, p, coupons.ID))
			must[*campaign.Campaign](t)(e.Campaigns().Enable(ctx, p, coupons.ID))
			return []outboxEvent{ev("campaign.disabled", coupons.ID, "campaign"), ev("campaign.enabled", coupons.ID, "campaign")}
		}},
		{"one voucher added to the campaign", func(t *testing.T) []outboxEvent {
			single = must[*voucher.Voucher](t)(e.Vouchers().CreateInCampaign(ctx, p, coupons.ID, voucher.CampaignParams{}, promo.Ptr("ONE")))
			return []outboxEvent{ev("voucher.created", single.ID, "voucher", "campaign"), ev("campaign.vouchers.aded", coupons.ID, "campaign", "count=")}
		}},
		{"vouchers generated for the campaign", func(t *testing.T) []outboxEvent {
			must[*async.Ref](t)(e.Vouchers().GenerateInCampaign(ctx, p, coupons.ID, voucher.CampaignParams{VouchersCount: promo.Ptr[int64](9)}))
			runPending(t, f.fixture)
			return []outboxEvent{
				ev("campaign.vouchers.generation.started", coupons.ID, "campaign", "count="),
				ev("campaign.vouchers.generation.completed", coupons.ID, "campaign", "count=", "completed_at="),
			}
		}},
		{"vouchers imported", func(t *testing.T) []outboxEvent {
			must[*async.Ref](t)(e.Vouchers().ImportToCampaign(ctx, p, coupons.ID, []voucher.ImportItem{{Code: promo.Ptr("IMP-1")}, {Code: promo.Ptr("IMP-2")}}))
			runPending(t, f.fixture)
			imp1 := must[*voucher.Voucher](t)(e.Vouchers().Get(ctx, p, "IMP-1"))
			imp2 := must[*voucher.Voucher](t)(e.Vouchers().Get(ctx, p, "IMP-2"))
			return []outboxEvent{
				ev("voucher.created", imp1.ID, "voucher", "campaign"),
				ev("voucher.created", imp2.ID, "voucher", "campaign"),
				ev("campaign.vouchers.aded", coupons.ID, "campaign", "count="),
			}
		}},
		{"standalone voucher create with a rule", func(t *testing.T) []outboxEvent {
			alone = must[*voucher.Voucher](t)(e.Vouchers().Create(ctx, p, voucher.Params{Code: promo.Ptr("ALONE"), Type: promo.Ptr(campaign.DiscountVoucher),
				Discount: percentOff("5"), ValidationRules: []string{vr.ID}}))
			aloneRA = alone.ValidationRulesAssignments.Data[0].ID
			return []outboxEvent{
				ev("business_validation_rule.assignment.created", aloneRA, "rule", "assignment", "voucher"),
				ev("voucher.created", alone.ID, "voucher", "campaign=null"),
			}
		}},
		{"voucher update, disable, enable", func(t *testing.T) []outboxEvent {
			must[*voucher.Voucher](t)(e.Vouchers().Update(ctx, p, "ALONE", voucher.UpdateParams{Common: voucher.Common{AdditionalInfo: promo.Ptr("x")}}))
			must[*voucher.Voucher](t)(e.Vouchers().SetActive(ctx, p, "ALONE", false))
			must[*voucher.Voucher](t)(e.Vouchers().SetActive(ctx, p, single.ID, true))
			return []outboxEvent{
				ev("voucher.updated", alone.ID, "voucher", "campaign=null"),
				ev("voucher.disabled", alone.ID, "voucher", "campaign=null"),
				ev("voucher.enabled", single.ID, "voucher", "campaign"),
			}
		}},
		{"voucher delete", func(t *testing.T) []outboxEvent {
			if err := e.Vouchers().Delete(ctx, p, "ALONE", false); err != nil {
				t.Fatal(err)
			}
			return []outboxEvent{
				ev("voucher.deleted", alone.ID, "voucher", "campaign=null"),
				ev("business_validation_rule.assignment.deleted", aloneRA, "rule", "assignment", "voucher"),
			}
		}},
		{"promotion campaign create with tiers", func(t *testing.T) []outboxEvent {
			promos = createCampaign(t, f.fixture, decode[campaign.Params](t, `{"name":"Promos","campaign_type":"PROMOTION","promotion":{"tiers":[{"name":"A"}]}}`))
			tierA = promos.Promotion.Data[0]
			return []outboxEvent{ev("campaign.created", promos.ID, "campaign", "created_at="), ev("campaign.promotion_tier.created", tierA.ID, "campaign", "promotion_tier")}
		}},
		{"tier create, update, disable, enable", func(t *testing.T) []outboxEvent {
			tiers := e.PromotionTiers()
			tierB = must[*campaign.PromotionTier](t)(tiers.Create(ctx, p, promos.ID, campaign.TierParams{Name: promo.Ptr("B")}))
			must[*campaign.PromotionTier](t)(tiers.Update(ctx, p, tierB.ID, campaign.TierParams{Banner: promo.Ptr("b")}))
			must[*campaign.PromotionTier](t)(tiers.SetActive(ctx, p, tierB.ID, false))
			must[*campaign.PromotionTier](t)(tiers.SetActive(ctx, p, tierB.ID, true))
			return []outboxEvent{
				ev("campaign.promotion_tier.created", tierB.ID, "campaign", "promotion_tier"),
				ev("campaign.promotion_tier.updated", tierB.ID, "campaign", "promotion_tier"),
				ev("campaign.promotion_tier.disabled", tierB.ID, "campaign", "promotion_tier"),
				ev("campaign.promotion_tier.enabled", tierB.ID, "campaign", "promotion_tier"),
			}
		}},
		{"stack create and update", func(t *testing.T) []outboxEvent {
			stacks := e.PromotionStacks()
			stack = must[*campaign.PromotionStack](t)(stacks.Create(ctx, p, promos.ID, campaign.StackParams{Name: promo.Ptr("S"),
				Tiers: &campaign.StackTiersParams{IDs: []string{tierA.ID, tierB.ID}}}))
			must[*campaign.PromotionStack](t)(stacks.Update(ctx, p, promos.ID, stack.ID, campaign.StackParams{Name: promo.Ptr("S2")}))
			return []outboxEvent{
				ev("campaign.promotion_stack.created", stack.ID, "campaign", "promotion_stack"),
				ev("campaign.promotion_stack.updated", stack.ID, "campaign", "promotion_stack"),
			}
		}},
		{"assignment create and delete", func(t *testing.T) []outboxEvent {
			vr := e.ValidationRules()
			promosRA = must[*rule.Assignment](t)(vr.Assign(ctx, p, vr2.ID, rule.AssignmentParams{RelatedObjectType: "campaign", RelatedObjectID: "Promos"}, false))
			tierRA := must[*rule.Assignment](t)(vr.Assign(ctx, p, vr2.ID, rule.AssignmentParams{RelatedObjectType: "promotion_tier", RelatedObjectID: tierB.ID}, false))
			if err := vr.Unassign(ctx, p, vr2.ID, tierRA.ID); err != nil {
				t.Fatal(err)
			}
			return []outboxEvent{
				ev("business_validation_rule.assignment.created", promosRA.ID, "rule", "assignment", "campaign"),
				ev("business_validation_rule.assignment.created", tierRA.ID, "rule", "assignment", "promotion_tier"),
				ev("business_validation_rule.assignment.deleted", tierRA.ID, "rule", "assignment", "promotion_tier"),
			}
		}},
		{"tier delete", func(t *testing.T) []outboxEvent {
			if err := e.PromotionTiers().Delete(ctx, p, tierB.ID); err != nil {
				t.Fatal(err)
			}
			return []outboxEvent{ev("campaign.promotion_tier.deleted", tierB.ID, "campaign", "promotion_tier")}
		}},
		{"campaign delete", func(t *testing.T) []outboxEvent {
			must[*async.Ref](t)(e.Campaigns().Delete(ctx, p, coupons.ID, false))
			must[*async.Ref](t)(e.Campaigns().Delete(ctx, p, promos.ID, false))
			runPending(t, f.fixture) // moving the vouchers to the bin records nothing
			return []outboxEvent{
				ev("campaign.deleted", coupons.ID, "campaign", "deleted_at="),
				ev("business_validation_rule.assignment.deleted", couponsRA, "rule", "assignment", "campaign"),
				ev("campaign.deleted", promos.ID, "campaign", "deleted_at="),
				ev("business_validation_rule.assignment.deleted", promosRA.ID, "rule", "assignment", "campaign"),
			}
		}},
		{"rule delete", func(t *testing.T) []outboxEvent {
			if err := e.ValidationRules().Delete(ctx, p, vr.ID); err != nil {
				t.Fatal(err)
			}
			return []outboxEvent{ev("business_validation_rule.deleted", vr.ID, "rule", "deleted_at=")}
		}},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			from := f.count()
			want := s.do(t)
			diff(t, "new outbox events", want, f.since(t, from))
		})
	}
}

// A generation that runs out of codes ends with
// campaign.vouchers.generation.failed, after its started event.
func TestEventsOfAFailedGeneration(t *testing.T) {
	f := newOutboxFixture(t)
	in := discountCampaign("One", 1)
	in.Voucher.CodeConfig = &campaign.CodeConfig{Pattern: promo.Ptr("#"), Charset: promo.Ptr("0123456789")}
	c := createCampaign(t, f.fixture, in)
	runPending(t, f.fixture)
	for i := range 10 { // every other one-digit code taken
		code := string(rune('0' + i))
		if _, err := f.eng.Vouchers().Get(ctx, f.project, code); err == nil {
			continue
		}
		must[*voucher.Voucher](t)(f.eng.Vouchers().Create(ctx, f.project, voucher.Params{Code: &code, Type: promo.Ptr(campaign.DiscountVoucher), Discount: percentOff("1")}))
	}
	from := f.count()
	must[*async.Ref](t)(f.eng.Vouchers().GenerateInCampaign(ctx, f.project, c.ID, voucher.CampaignParams{VouchersCount: promo.Ptr[int64](1)}))
	runPending(t, f.fixture)
	diff(t, "events of the failed generation", []outboxEvent{
		ev("campaign.vouchers.generation.started", c.ID, "campaign", "count="),
		ev("campaign.vouchers.generation.failed", c.ID, "campaign", "count=", "failed_at="),
	}, f.since(t, from))
}

// A refused operation appends nothing, also when the refusal comes after
// an event was appended in its transaction (the rollback takes it).
func TestRefusedOperationsAppendNoEvent(t *testing.T) {
	f := newOutboxFixture(t)
	e, p := f.eng, f.project
	vr := must[*rule.ValidationRule](t)(e.ValidationRules().Create(ctx, p, ruleParams(t, `{"name":"R","rules":{"1":{"name":"order.amount","conditions":{"$more_than":[1]}},"logic":"1"}}`)))
	createCampaign(t, f.fixture, discountCampaign("Taken", 0))
	must[*project.MetadataSchema](t)(e.MetadataSchemas().Create(ctx, p, project.MetadataSchemaParams{RelatedObject: "promotion_tier",
		Properties: map[string]project.Definition{"n": {Type: project.TypeNumber, Optional: true}}}))
	promos := createCampaign(t, f.fixture, decode[campaign.Params](t, `{"name":"Promos","campaign_type":"PROMOTION"}`))
	must[*rule.Assignment](t)(e.ValidationRules().Assign(ctx, p, vr.ID, rule.AssignmentParams{RelatedObjectType: "campaign", RelatedObjectID: "Taken"}, false))
	tests := []struct {
		name string
		do   func() error
		code int
		key  string
	}{
		{"duplicate campaign name", func() error {
			_, err := e.Campaigns().Create(ctx, p, discountCampaign("Taken", 1))
			return err
		}, 409, "duplicate_found"},
		{"voucher whose second rule is missing (after the first assignment's event)", func() error {
			_, err := e.Vouchers().Create(ctx, p, voucher.Params{Code: promo.Ptr("V"), Type: promo.Ptr(campaign.DiscountVoucher), Discount: percentOff("1"),
				ValidationRules: []string{vr.ID, "val_missing"}})
			return err
		}, 404, "not_found"},
		{"tier with bad metadata", func() error {
			_, err := e.PromotionTiers().Create(ctx, p, promos.ID, campaign.TierParams{Name: promo.Ptr("T"), Metadata: promo.Metadata{"n": "x"}})
			return err
		}, 400, "metadata_validation_failed"},
		{"delete of a missing rule", func() error { return e.ValidationRules().Delete(ctx, p, "val_missing") }, 404, "not_found"},
		{"second assignment of a rule", func() error {
			_, err := e.ValidationRules().Assign(ctx, p, vr.ID, rule.AssignmentParams{RelatedObjectType: "campaign", RelatedObjectID: "Taken"}, false)
			return err
		}, 409, "duplicate_found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from := f.count()
			wantErr(t, tt.do(), tt.code, tt.key)
			diff(t, "events of a refused operation", []outboxEvent{}, f.since(t, from))
		})
	}
	if _, err := e.Vouchers().Get(ctx, p, "V"); err == nil {
		t.Errorf("the refused voucher was stored")
	}
}
